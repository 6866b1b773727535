package campaign

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// publicFormTTL bounds how long a built public form is reused while its rows are unchanged: the
// gateway's amount limits and card methods in it are the adapters' (cached by them for a minute).
const publicFormTTL = time.Minute

// publicForms keeps each slug's public form as the JSON last answered, so a read of an unchanged form
// is one shard query (PublicFormStamp) instead of the directory route, the campaign, organisation,
// connection and reference-data reads, the gateway account's resolution and the JSON encoding.
// Freshness is checked in the database on every read, so an edit, a publish, an unpublish or a new
// gateway connection made by any process is seen by the next read of every process.
type publicForms struct{ m sync.Map } // slug → *publicForm

type publicForm struct {
	route tenants.Route
	stamp string // PublicFormStamp when body was built
	body  json.RawMessage
	built time.Time
}

// get is the slug's cached answer while its stamp in the shard is unchanged.
func (p *publicForms) get(ctx context.Context, s *Service, slug string) (json.RawMessage, bool) {
	v, ok := p.m.Load(slug)
	if !ok {
		return nil, false
	}
	e := v.(*publicForm)
	if time.Since(e.built) > publicFormTTL {
		return nil, false
	}
	stamp, err := s.publicStamp(ctx, e.route, slug)
	if errors.Is(err, dberr.ErrNotFound) { // unpublished or renamed: nothing to keep
		p.m.CompareAndDelete(slug, e)
	}
	if err != nil || stamp != e.stamp { // edited, or unreadable: build again
		return nil, false
	}
	return e.body, true
}

func (p *publicForms) put(slug string, e *publicForm) { p.m.Store(slug, e) }

// publicStamp is the digest of the rows the slug's form is built from; dberr.ErrNotFound when the
// route's campaign no longer publishes this slug.
func (s *Service) publicStamp(ctx context.Context, route tenants.Route, slug string) (string, error) {
	scope, err := s.tenants.ForOrganization(ctx, route.OrganizationID)
	if err != nil {
		return "", err
	}
	return scope.Store().PublicFormStamp(ctx, sharddb.PublicFormStampParams{OrganizationID: route.OrganizationID,
		ID: route.CampaignID, Slug: slug})
}

// PublicJSON is the slug's PublicForm encoded, reused across reads while its rows are unchanged (publicForms).
func (s *Service) PublicJSON(ctx context.Context, slug string) (json.RawMessage, error) {
	if body, ok := s.public.get(ctx, s, slug); ok {
		return body, nil
	}
	route, err := s.route(ctx, slug)
	if err != nil {
		return nil, err
	}
	// The stamp is read before the rows: a change while building leaves a stale stamp, so the next
	// read builds again rather than keep a mix.
	stamp, err := s.publicStamp(ctx, route, slug)
	if err != nil {
		stamp = ""
	}
	built := time.Now()
	f, complete, err := s.publicForm(ctx, route)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	if complete && stamp != "" { // a form built while the gateway did not answer is not kept
		s.public.put(slug, &publicForm{route: route, stamp: stamp, body: body, built: built})
	}
	return body, nil
}
