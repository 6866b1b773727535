package i18n

import "context"

type langKey struct{}

// WithLang is ctx carrying the request's language, so code without the HTTP request (an endpoint's
// Execute) renders in it.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, langKey{}, l)
}

// FromContext is the language WithLang put in ctx, Default when none.
func FromContext(ctx context.Context) Lang {
	if l, ok := ctx.Value(langKey{}).(Lang); ok {
		return l
	}
	return Default
}
