package i18n

import "context"

type langKey struct{}

// WithLang returns ctx carrying the request's language (the locale middleware's job), so code
// without the HTTP request (an endpoint's Execute, a service) writes in it.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, langKey{}, l)
}

// LangOf is the language ctx carries, or Default.
func LangOf(ctx context.Context) Lang {
	if l, ok := ctx.Value(langKey{}).(Lang); ok {
		return l
	}
	return Default
}
