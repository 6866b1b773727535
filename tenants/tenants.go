// Package tenants owns every database connection: the directory (control plane) and one shard per
// country. The rest of the code asks it for a Scope bound to an organisation and never opens
// connections itself, so a query can only reach the shard its organisation lives in.
package tenants

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
)

// ErrUnknownOrganization is returned for an organisation id the directory does not know.
var ErrUnknownOrganization = errors.New("tenants: unknown organization")

// ErrUnknownCountry is returned for a country without a shard.
var ErrUnknownCountry = errors.New("tenants: unknown country")

// Tenants routes organisations to their country shard.
type Tenants struct {
	directory *pgxpool.Pool
	shards    map[string]*pgxpool.Pool
	// An organisation never changes country, so its routing can be cached for the process lifetime.
	countries sync.Map // uuid.UUID → string
}

// Open creates the pools, bounded by db. pgxpool connects lazily, so a shard that is down fails its
// requests and /readyz, not start-up.
func Open(ctx context.Context, directoryDSN string, shardDSNs map[string]string, db config.DBConfig) (*Tenants, error) {
	t := &Tenants{shards: map[string]*pgxpool.Pool{}}
	var err error
	if t.directory, err = newPool(ctx, directoryDSN, db); err != nil {
		return nil, fmt.Errorf("directory: %w", err)
	}
	for country, dsn := range shardDSNs {
		if t.shards[country], err = newPool(ctx, dsn, db); err != nil {
			t.Close()
			return nil, fmt.Errorf("shard %s: %w", country, err)
		}
	}
	return t, nil
}

func newPool(ctx context.Context, dsn string, db config.DBConfig) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "aporta"
	if db.MaxConns > 0 {
		cfg.MaxConns = db.MaxConns
	}
	if db.ConnectTimeout > 0 {
		cfg.ConnConfig.ConnectTimeout = db.ConnectTimeout
	}
	// Server-side limits, set at connection start so every statement and transaction carries them.
	// Zero leaves the server's setting (migrations run without a statement limit).
	for param, d := range map[string]time.Duration{
		"statement_timeout":                   db.StatementTimeout,
		"idle_in_transaction_session_timeout": db.IdleInTxTimeout,
	} {
		if d > 0 {
			cfg.ConnConfig.RuntimeParams[param] = strconv.FormatInt(d.Milliseconds(), 10)
		}
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Close closes every pool.
func (t *Tenants) Close() {
	if t.directory != nil {
		t.directory.Close()
	}
	for _, p := range t.shards {
		p.Close()
	}
}

// Directory is the control-plane pool.
func (t *Tenants) Directory() *pgxpool.Pool { return t.directory }

// Countries lists the countries that have a shard.
func (t *Tenants) Countries() []string {
	out := make([]string, 0, len(t.shards))
	for c := range t.shards {
		out = append(out, c)
	}
	return out
}

// Shard returns a country's pool, for work that spans organisations (migrations, workers scanning due
// charges). Request handlers use ForOrganization instead.
func (t *Tenants) Shard(country string) (*pgxpool.Pool, error) {
	p, ok := t.shards[country]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownCountry, country)
	}
	return p, nil
}

// Scope is a shard pool bound to one organisation. Stores take a Scope and filter every query by
// OrgID; the pool is exposed only through Query/Exec/Tx helpers that carry it.
type Scope struct {
	OrgID   uuid.UUID
	Country string
	pool    *pgxpool.Pool
}

// ForOrganization resolves an organisation's shard through the directory.
func (t *Tenants) ForOrganization(ctx context.Context, orgID uuid.UUID) (Scope, error) {
	if c, ok := t.countries.Load(orgID); ok {
		return t.scope(orgID, c.(string))
	}
	country, err := t.dir().DirectoryOrganizationCountry(ctx, orgID)
	if errors.Is(err, dberr.ErrNotFound) {
		return Scope{}, ErrUnknownOrganization
	}
	if err != nil {
		return Scope{}, fmt.Errorf("directory lookup: %w", err)
	}
	t.countries.Store(orgID, country)
	return t.scope(orgID, country)
}

func (t *Tenants) scope(orgID uuid.UUID, country string) (Scope, error) {
	p, err := t.Shard(country)
	if err != nil {
		return Scope{}, err
	}
	return Scope{OrgID: orgID, Country: country, pool: p}, nil
}

// QueryRow runs a single-row query on the organisation's shard.
func (s Scope) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	return s.pool.QueryRow(ctx, sql, args...)
}

// Query runs a query on the organisation's shard.
func (s Scope) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return s.pool.Query(ctx, sql, args...)
}

// Exec runs a statement on the organisation's shard.
func (s Scope) Exec(ctx context.Context, sql string, args ...any) error {
	_, err := s.pool.Exec(ctx, sql, args...)
	return err
}

// Store is the generated shard queries on the organisation's pool (sharddb.Store(tx) inside Tx).
// Every query still names the organisation: pass s.OrgID.
func (s Scope) Store() *sharddb.Queries { return sharddb.Store(s.pool) }

// Tx runs fn in a transaction on the organisation's shard, committing when fn returns nil. A
// transaction the database cancels so that it can run again (dberr.Retryable: a deadlock victim, a
// serialization failure, a delegated call a shard move turned away) changed nothing and runs again
// from the start, up to txAttempts times: on Citus the distributed deadlock detector also cancels
// transactions queued on one row behind others that are in no cycle (several writers of one donation). So fn may run more than once: it must reach nothing but the database,
// through tx, and assign rather than accumulate what it hands back.
func (s Scope) Tx(ctx context.Context, fn func(pgx.Tx) error) error {
	return retried(ctx, func() error { return pgx.BeginFunc(ctx, s.pool, fn) })
}

// Alone runs fn, which sends one statement to the organisation's shard outside a transaction block: a lone
// statement is a transaction of its own, one round trip where a BEGIN and a COMMIT around it add theirs (a
// delegated function's call, charge.Record's). Cancelled so that it can run again (dberr.Retryable), it runs
// again as Tx does, so fn sends nothing but that statement, through q, and assigns what it answers.
func (s Scope) Alone(ctx context.Context, fn func(q *sharddb.Queries) error) error {
	return retried(ctx, func() error { return fn(s.Store()) })
}

// retried runs run again, up to txAttempts times, while the database cancels it so that it can run again
// (dberr.Retryable).
func retried(ctx context.Context, run func() error) error {
	for attempt := 1; ; attempt++ {
		err := run()
		if attempt == txAttempts || !dberr.Retryable(err) {
			return err
		}
		// Spread the victims out so they do not queue up in the same order again.
		wait := time.Duration(attempt)*20*time.Millisecond + time.Duration(rand.Int64N(int64(20*time.Millisecond)))
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// txAttempts bounds Tx's runs of one transaction.
const txAttempts = 5

// ReadTx runs fn in a REPEATABLE READ READ ONLY transaction on the organisation's shard: several reads that
// agree with each other, the mode set by the BEGIN itself (no round trip of its own).
func (s Scope) ReadTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, readOnlySnapshot, fn)
}

var readOnlySnapshot = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// ReadSnapshot runs fn in a REPEATABLE READ READ ONLY transaction on a connection of its own, outside
// the pool: a long read (an export streamed to object storage) sees one consistent snapshot without
// holding one of the pool's connections for minutes. The connection has the pool's settings
// (timeouts included: read in batches, so each statement stays short) and is closed afterwards.
func (s Scope) ReadSnapshot(ctx context.Context, fn func(pgx.Tx) error) error {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return pgx.BeginTxFunc(ctx, conn, readOnlySnapshot, fn)
}
