package document_test

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/document"
	apiblob "github.com/aporta/aporta/internal/blob"
)

// gatedFile is an upload whose body stalls (a slow client or slow storage) until released.
type gatedFile struct {
	*bytes.Reader
	once    sync.Once
	reading chan struct{}
	release chan struct{}
}

func (f *gatedFile) Read(p []byte) (int, error) {
	f.once.Do(func() { close(f.reading); <-f.release })
	return f.Reader.Read(p)
}

// A slow upload must not hold a transaction: while the object is being stored, the document's row
// is not locked (before, the transaction kept it locked, and a pool connection pinned, for as long
// as the upload took). The row is written once the object is stored.
func TestSlowDocumentUploadHoldsNoTransaction(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")
	ctx := context.Background()
	bucket, err := apiblob.Open(ctx, s.Config.BlobURL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = bucket.Close() })
	svc := document.NewService(s.Tenants, bucket, nil)
	scope, err := svc.Scope(ctx, admin.OrgID)
	require.NoError(t, err)

	f := &gatedFile{Reader: bytes.NewReader(apitest.PDF), reading: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := svc.Add(ctx, scope, document.Upload{DocumentType: "bylaws", Filename: "slow.pdf", Size: int64(len(apitest.PDF)), File: f})
		done <- err
	}()
	select {
	case <-f.reading:
	case err := <-done:
		t.Fatalf("the upload ended before reading its body: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the upload never started")
	}

	// Mid-upload: the document's row can be locked at once from elsewhere.
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `SELECT 1 FROM organization_documents WHERE organization_id = $1 AND type = 'bylaws' FOR UPDATE NOWAIT`, admin.OrgID)
		return err
	})
	require.NoError(t, err, "the document's row is locked during the upload")
	close(f.release)
	require.NoError(t, <-done)
	rows, objects := stored(t, s, admin.OrgID)
	require.Equal(t, 1, rows)
	require.Equal(t, 1, objects)
}
