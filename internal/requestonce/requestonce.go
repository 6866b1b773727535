// Package requestonce reads a row once per request. The public form's POST asks for the same rows from
// several places (its amount limits, its gateway and its charge's route each want the campaign's processor
// routes and the organisation's gateway connection): on Citus every read is a round trip through the
// coordinator (issue 19), and one read also makes the places agree.
package requestonce

import (
	"context"
	"sync"
)

type table struct {
	mu   sync.Mutex
	vals map[any]any
}

type ctxKey struct{}

// Start returns ctx with an empty table, within which Read reads each key once. A ctx that has one
// already is returned as it is.
func Start(ctx context.Context) context.Context {
	if _, ok := ctx.Value(ctxKey{}).(*table); ok {
		return ctx
	}
	return context.WithValue(ctx, ctxKey{}, &table{vals: map[any]any{}})
}

// Read answers read's value for key, read once per Start context (a failed read is not kept, so the
// next asks again); outside one, it reads every time. key must be comparable, of a type of the caller's
// own so that no two packages' keys meet.
func Read[V any](ctx context.Context, key any, read func() (V, error)) (V, error) {
	t, ok := ctx.Value(ctxKey{}).(*table)
	if !ok {
		return read()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.vals[key]; ok {
		return v.(V), nil
	}
	v, err := read()
	if err == nil {
		t.vals[key] = v
	}
	return v, err
}

// Keep records v as key's value in ctx's table, for a row the request wrote or read another way (outside a
// Start context it does nothing): a later Read of key answers v without reading.
func Keep(ctx context.Context, key, v any) {
	if t, ok := ctx.Value(ctxKey{}).(*table); ok {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.vals[key] = v
	}
}
