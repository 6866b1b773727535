package campaign

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// publicFormTTL bounds how long a built public form is reused while its rows are unchanged: the
// gateway's amount limits and card methods in it are the adapters' (cached by them for a minute).
const publicFormTTL = time.Minute

// PublicRecheck is how long a kept answer is served without asking the shard whether its rows
// changed (PublicFormStamp). It is the longest an edit made by another process, or by a workflow,
// takes to show (twice that while a slow check is under way); the process that edits a campaign
// forgets its answer at once. A stale form can take nothing: the donation POST reads the campaign,
// organisation, limits and gateway connection afresh (FormBySlug, LimitsFor) and refuses by them.
const PublicRecheck = 500 * time.Millisecond

// publicForms keeps each slug's public form as the JSON last answered, so a read of an unchanged form
// is no query at all instead of the directory route, the campaign, organisation, connection and
// reference-data reads, the gateway account's resolution and the JSON encoding. Every PublicRecheck
// one read per slug compares the stamp of the rows the answer was built from with the shard's (a
// digest of every row the form shows, so no writer has to remember to bump anything) while the
// other reads go on answering the kept one.
type publicForms struct {
	m   sync.Map      // slug → *publicForm
	gen atomic.Uint64 // forget calls so far: a build that overlapped one is not kept
}

type publicForm struct {
	route    tenants.Route
	stamp    string // PublicFormStamp, read before the rows body was built from
	body     json.RawMessage
	built    time.Time
	checked  atomic.Int64 // unix nanoseconds of the last read of stamp found current
	checking atomic.Bool  // a read is asking the shard now
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// get is the slug's kept answer: at once within PublicRecheck of its last check, else after one
// read confirms its stamp, while the other reads answer it meanwhile (for at most another
// PublicRecheck, so a check stuck on a slow shard does not stretch how stale an answer gets).
func (p *publicForms) get(ctx context.Context, s *Service, slug string) (json.RawMessage, bool) {
	v, ok := p.m.Load(slug)
	if !ok {
		return nil, false
	}
	e := v.(*publicForm)
	now := s.now()
	if now.Sub(e.built) > publicFormTTL {
		return nil, false
	}
	age := now.Sub(time.Unix(0, e.checked.Load()))
	if age < PublicRecheck {
		return e.body, true
	}
	if !e.checking.CompareAndSwap(false, true) { // another read is checking
		if age < 2*PublicRecheck {
			return e.body, true
		}
		return nil, false
	}
	defer e.checking.Store(false)
	stamp, err := s.publicStamp(ctx, e.route, slug)
	if err != nil || stamp != e.stamp { // edited, unpublished or unreadable: build again
		p.m.CompareAndDelete(slug, e)
		return nil, false
	}
	e.checked.Store(now.UnixNano())
	return e.body, true
}

// keep stores a built answer unless a forget ran since gen was read: that edit may be newer than
// the rows read.
func (p *publicForms) keep(gen uint64, slug string, e *publicForm) {
	e.checked.Store(e.built.UnixNano())
	p.m.Store(slug, e)
	if p.gen.Load() != gen { // forget's delete may have run before the Store: undo it here
		p.m.CompareAndDelete(slug, e)
	}
}

// forget drops the campaign's kept answer after this process changed its row, so its next read here
// shows the change at once.
func (p *publicForms) forget(campaignID uuid.UUID) {
	p.gen.Add(1)
	p.m.Range(func(slug, v any) bool {
		if v.(*publicForm).route.CampaignID == campaignID {
			p.m.CompareAndDelete(slug, v)
		}
		return true
	})
}

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
	gen := s.public.gen.Load()
	route, err := s.route(ctx, slug)
	if err != nil {
		return nil, err
	}
	// The stamp is read before the rows: a change while building leaves a stale stamp, so the next
	// check builds again rather than keep a mix.
	built := s.now()
	stamp, err := s.publicStamp(ctx, route, slug)
	if err != nil {
		stamp = ""
	}
	f, complete, err := s.publicForm(ctx, route)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	if complete && stamp != "" { // a form built while the gateway did not answer is not kept
		s.public.keep(gen, slug, &publicForm{route: route, stamp: stamp, body: body, built: built})
	}
	return body, nil
}
