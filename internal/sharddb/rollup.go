package sharddb

import (
	"context"

	"github.com/google/uuid"
)

// WithRollup runs write, a change of the given donations of org or of their transactions, keeping the
// dashboard rollup (migrations/shard/0300, 0330) exact in the same database transaction, which q must
// be on: it locks the donations (in id order), reads their contribution, runs write and adds the
// difference. Every write of a donation or transaction column the rollup reads goes through it (no
// triggers: Citus distributes no table that has them). Writers of one organisation cannot deadlock on
// the rollup: each locks the rollup rows it changes last, in the one key order every writer follows.
func (q *Queries) WithRollup(ctx context.Context, org uuid.UUID, donations []uuid.UUID, write func() error) error {
	return q.WithRollupThen(ctx, org, donations, write, nil)
}

// WithRollupThen is WithRollup running then (nil: nothing) after the rollup's rows are written: a row every writer of
// the organisation takes, hotter than the rollup's (its receipt counter), is locked there, last, so they queue on it
// over the fewest statements (issue 19). Whatever then locks, every writer must lock after the rollup rows. The
// rollup's change and then's statements go in one round trip (Pipelined: then follows its rules), the last before
// the caller's COMMIT, so the rows they lock stay locked the least.
func (q *Queries) WithRollupThen(ctx context.Context, org uuid.UUID, donations []uuid.UUID, write func() error, then func(*Queries) error) error {
	before, err := q.LockRollup(ctx, LockRollupParams{OrganizationID: org, Ids: donations})
	if err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return q.Pipelined(ctx, func(q *Queries) error {
		if err := q.AddRollupChange(ctx, AddRollupChangeParams{OrganizationID: org, Ids: donations, Before: before}); err != nil || then == nil {
			return err
		}
		return then(q)
	})
}
