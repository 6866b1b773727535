package sharddb

import (
	"context"

	"github.com/google/uuid"
)

const sqlRollupWriterLock = `SELECT pg_advisory_xact_lock(7419202, hashtext($1::text))`

// WithRollup runs write, a change of the given donations of org or of their transactions, keeping the
// dashboard rollup (migrations/shard/0300) exact in the same database transaction, which q must be on:
// it locks the donations, takes their contribution out, runs write and puts their contribution back.
// Every write of a donation or transaction column the rollup reads goes through it (no triggers: Citus
// distributes no table that has them).
func (q *Queries) WithRollup(ctx context.Context, org uuid.UUID, donations []uuid.UUID, write func() error) error {
	// One rollup writer of an organisation at a time, until its transaction ends: two writers lock
	// donations and the same day's rollup rows in different orders, which deadlocks (on Citus across
	// workers). Planned on the coordinator alone: it touches no table.
	if _, err := q.db.Exec(ctx, sqlRollupWriterLock, org); err != nil {
		return err
	}
	if err := q.LockRollupDonations(ctx, LockRollupDonationsParams{OrganizationID: org, Ids: donations}); err != nil {
		return err
	}
	// A statement of its own after the lock: it reads what a writer that held the lock committed.
	if err := q.ApplyRollup(ctx, ApplyRollupParams{OrganizationID: org, Ids: donations, Sign: -1}); err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return q.ApplyRollup(ctx, ApplyRollupParams{OrganizationID: org, Ids: donations, Sign: 1})
}
