package tenants

import "context"

type scopeKey struct{}

// WithScope returns ctx carrying the organisation scope the request was authorised for; the API's
// permission middleware sets it once, so endpoints and services never resolve the shard again.
func WithScope(ctx context.Context, s Scope) context.Context {
	return context.WithValue(ctx, scopeKey{}, s)
}

// ScopeFrom is the scope WithScope stored; ok is false outside an organisation's request.
func ScopeFrom(ctx context.Context) (Scope, bool) {
	s, ok := ctx.Value(scopeKey{}).(Scope)
	return s, ok
}
