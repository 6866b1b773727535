package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"gocloud.dev/blob"

	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// exportBatch is how many rows one FETCH reads.
const exportBatch = 1000

// Activities hold the export workflows' side effects.
type Activities struct {
	Tenants   *tenants.Tenants
	Bucket    *blob.Bucket
	Mail      outbox.Mailer
	Secret    []byte
	PublicURL string
}

// BuildLeadsCSV writes the organisation's leads of the window before now to the token's object and
// answers the row count. Only this organisation's rows are read (the query is scoped by its id).
func (a *Activities) BuildLeadsCSV(ctx context.Context, orgID, token string, now time.Time) (int, error) {
	if !ValidToken(token) {
		return 0, temporal.NewNonRetryableApplicationError("bad token", "BadInput", nil)
	}
	s, err := orgscope.For(ctx, a.Tenants, orgID)
	if err != nil {
		return 0, err
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel() // an unfinished writer is discarded, never committed
	w, err := a.Bucket.NewWriter(wctx, ObjectKey(token), &blob.WriterOptions{ContentType: "text/csv; charset=utf-8"})
	if err != nil {
		return 0, err
	}
	cw, err := NewCSVWriter(w)
	if err != nil {
		return 0, err
	}
	n := 0
	// One consistent snapshot read through a cursor in batches, on a connection of its own: each
	// statement stays short (under the statement timeout), and no pool connection waits on the upload.
	err = s.ReadSnapshot(ctx, func(tx pgx.Tx) error {
		err := sharddb.Store(tx).DeclareLeadsExportCursor(ctx, sharddb.DeclareLeadsExportCursorParams{
			OrganizationID: s.OrgID, SeenSince: now.Add(-LeadsWindow),
		})
		if err != nil {
			return err
		}
		for {
			rows, err := tx.Query(ctx, fmt.Sprintf("FETCH FORWARD %d FROM leads", exportBatch))
			if err != nil {
				return err
			}
			read := 0
			for rows.Next() {
				read++
				var l Lead
				var tz string
				if err := rows.Scan(&l.Email, &l.FirstName, &l.LastName, &l.Campaign, &l.CreatedAt, &tz); err != nil {
					return err
				}
				loc, err := time.LoadLocation(tz)
				if err != nil {
					loc = time.UTC
				}
				if err := cw.Write(l, loc); err != nil {
					return err
				}
			}
			if err := rows.Err(); err != nil {
				return err
			}
			n += read
			activity.RecordHeartbeat(ctx, n)
			if read < exportBatch {
				return nil
			}
		}
	})
	if err != nil {
		return 0, err
	}
	if err := cw.Close(); err != nil {
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, fmt.Errorf("store export: %w", err)
	}
	return n, nil
}

// EmailLink e-mails the signed link (valid LinkValidity from now) to the requester, once per export.
func (a *Activities) EmailLink(ctx context.Context, in Input, token string) error {
	link := Link(a.PublicURL, a.Secret, token, time.Now().Add(LinkValidity))
	lang, _ := i18n.Parse(in.Lang)
	msg, err := outbox.Compose(in.Email, "leads_export", lang, map[string]any{"URL": link})
	if err != nil {
		return err
	}
	return a.Mail.SendOnce(ctx, "export/"+token, msg)
}

// DeleteOldLeads deletes, in every shard, the leads not seen since before.
func (a *Activities) DeleteOldLeads(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for _, country := range a.Tenants.Countries() {
		pool, err := a.Tenants.Shard(country)
		if err != nil {
			return total, err
		}
		// A shard's first cleanup after a long pause can delete many rows: longer than the pools'
		// statement timeout allows, within the activity's own.
		var deleted int64
		err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = '25min'"); err != nil {
				return err
			}
			deleted, err = sharddb.Store(tx).DeleteOldLeads(ctx, before)
			return err
		})
		if err != nil {
			return total, fmt.Errorf("%s: %w", country, err)
		}
		total += deleted
	}
	return total, nil
}

// DeleteOldFiles removes export files written before the cut-off (their links expired long ago).
func (a *Activities) DeleteOldFiles(ctx context.Context, before time.Time) error {
	it := a.Bucket.List(&blob.ListOptions{Prefix: "exports/"})
	for {
		obj, err := it.Next(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if !obj.IsDir && obj.ModTime.Before(before) {
			if err := a.Bucket.Delete(ctx, obj.Key); err != nil {
				return err
			}
		}
	}
}
