// Package world is the database scenarios' data access: a pgx pool of 20
// connections to the PostgreSQL named by $DATABASE_URL, and one statement
// each for the read by id (db), the paged list (db-list) and the insert
// (db-insert). The table and its 10,000 rows are made by
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

// List reads limit rows in id order after skipping offset: the paged list.
// A page past the end is empty, never nil, so it is written as [].
func (db *DB) List(ctx context.Context, offset, limit int) ([]Row, error) {
	if db == nil {
		return nil, errors.New("no database: set DATABASE_URL")
	}
	rows, err := db.pool.Query(ctx, "SELECT id, randomnumber FROM world ORDER BY id LIMIT $1 OFFSET $2", limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]Row, 0, limit)
	for rows.Next() {
		var r Row
		if err := rows.Scan(&r.ID, &r.RandomNumber); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Insert adds a row with this randomNumber and returns it as the database
// stored it, its id given by the table's identity (from 10,001; the
// collector's reset takes the table back to its 10,000 seeded rows).
func (db *DB) Insert(ctx context.Context, randomNumber int) (Row, error) {
	if db == nil {
		return Row{}, errors.New("no database: set DATABASE_URL")
	}
	var r Row
	err := db.pool.QueryRow(ctx, "INSERT INTO world (randomnumber) VALUES ($1) RETURNING id, randomnumber", randomNumber).Scan(&r.ID, &r.RandomNumber)
	return r, err
}
