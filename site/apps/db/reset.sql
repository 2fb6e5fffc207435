-- Takes table world back to the 10,000 rows world.sql seeded: the rows the
-- insert scenario added go, the identity starts again at 10,001, and VACUUM
-- clears the dead rows so that no measurement pays for an earlier one's.
-- The collector runs it (site/suites/db.toml, service reset) before every
-- gate, warm-up and measurement of a scenario that names the service in its
-- reset key. psql runs each statement on its own (VACUUM cannot run in a
-- transaction).
DELETE FROM world WHERE id > 10000;
ALTER TABLE world ALTER COLUMN id RESTART WITH 10001;
VACUUM world;
