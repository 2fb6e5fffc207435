-- The db scenario's table: 10,000 rows whose randomNumber is a fixed
-- function of id, so the gate can expect exact bytes
-- (id 42 -> 2599). Run once against an empty database:
--   psql -v ON_ERROR_STOP=1 -d "$DATABASE_URL" -f site/apps/db/world.sql
DROP TABLE IF EXISTS world;
CREATE TABLE world (
  id integer PRIMARY KEY,
  randomnumber integer NOT NULL
);
INSERT INTO world (id, randomnumber)
SELECT i, (i * 7919) % 10000 + 1 FROM generate_series(1, 10000) AS i;
ANALYZE world;
