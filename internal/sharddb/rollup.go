package sharddb

import (
	"context"

	"github.com/google/uuid"
)

// WithRollup runs write, a change of the given donations of org or of their transactions, keeping the
// dashboard rollup (migrations/shard/0300, 0330) exact in the same database transaction, which q must
// be on: it locks the donations (in id order), reads their contribution, runs write and adds the
// difference. Every write of a donation or transaction column the rollup reads goes through it (no
// triggers: Citus distributes no table that has them), or does the same in one function (charge_record,
// migrations/shard/0590). Writers of one organisation cannot deadlock on the rollup: each locks the rollup
// rows it changes last, in the one key order every writer follows; a row every writer of the organisation
// takes after them (charge_record's receipt counter) is locked after the rollup rows.
func (q *Queries) WithRollup(ctx context.Context, org uuid.UUID, donations []uuid.UUID, write func() error) error {
	before, err := q.LockRollup(ctx, LockRollupParams{OrganizationID: org, Ids: donations})
	if err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return q.AddRollupChange(ctx, AddRollupChangeParams{OrganizationID: org, Ids: donations, Before: before})
}
