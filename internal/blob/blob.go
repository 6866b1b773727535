// Package blob opens Aporta's object storage through gocloud.dev/blob: a directory (file://) in dev
// and test, S3 (s3://bucket?region=…) in production, an in-memory bucket (mem://) for unit tests.
// Objects are never public: handlers stream them to authorised users.
package blob

import (
	"context"
	"fmt"
	"net/url"
	"os"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file://
	_ "gocloud.dev/blob/memblob"  // mem://
	_ "gocloud.dev/blob/s3blob"   // s3://
)

// Bucket is gocloud's portable bucket.
type Bucket = blob.Bucket

// Open opens the bucket at rawURL (config.BlobURL). A file:// directory is created when missing
// and keeps no sidecar metadata files, so the directory holds exactly the stored objects.
func Open(ctx context.Context, rawURL string) (*blob.Bucket, error) {
	if rawURL == "" {
		rawURL = "mem://"
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("blob url: %w", err)
	}
	if u.Scheme == "file" {
		if err := os.MkdirAll(u.Path, 0o750); err != nil {
			return nil, fmt.Errorf("blob dir: %w", err)
		}
		q := u.Query()
		if q.Get("metadata") == "" {
			q.Set("metadata", "skip")
		}
		u.RawQuery = q.Encode()
	}
	b, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		return nil, fmt.Errorf("blob open %s: %w", u.Scheme, err)
	}
	return b, nil
}
