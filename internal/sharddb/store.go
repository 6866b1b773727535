package sharddb

import "github.com/aporta/aporta/internal/dberr"

// Store is the generated queries of a country shard on db (a pool, connection or transaction), with
// every error mapped by dberr. Use it rather than New or WithTx, which leave errors raw.
func Store(db dberr.DBTX) *Queries { return New(dberr.Wrap(db)) }
