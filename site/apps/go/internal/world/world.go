// Package world is the db scenario's data access: a pgx pool of 20
// connections to the PostgreSQL named by $DATABASE_URL and one indexed
// SELECT by primary key. The table and its 10,000 rows are made by
// site/apps/db/world.sql.
package world

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PoolSize is the number of connections every target keeps.
const PoolSize = 20

// Row is one row of table world, as the db scenario answers it.
type Row struct {
	ID           int `json:"id"`
	RandomNumber int `json:"randomNumber"`
}

// ErrNoRow is returned for an id that is not in the table.
var ErrNoRow = errors.New("no such row")

// DB is the pool, or nil when $DATABASE_URL is not set.
type DB struct{ pool *pgxpool.Pool }

// Open connects to $DATABASE_URL with a pool of PoolSize; it returns a nil
// *DB and no error when the variable is unset, so the other scenarios run
// without a database.
func Open(ctx context.Context) (*DB, error) {
	dsn := os.Getenv("DATABASE_URL")
	if dsn == "" {
		return nil, nil
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL: %w", err)
	}
	cfg.MaxConns, cfg.MinConns = PoolSize, PoolSize
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect %s: %w", cfg.ConnConfig.Host, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("ping %s: %w", cfg.ConnConfig.Host, err)
	}
	return &DB{pool: pool}, nil
}

// Get reads the row with this id.
func (db *DB) Get(ctx context.Context, id int) (Row, error) {
	if db == nil {
		return Row{}, errors.New("no database: set DATABASE_URL")
	}
	var r Row
	err := db.pool.QueryRow(ctx, "SELECT id, randomnumber FROM world WHERE id = $1", id).Scan(&r.ID, &r.RandomNumber)
	if errors.Is(err, pgx.ErrNoRows) {
		return Row{}, ErrNoRow
	}
	return r, err
}
