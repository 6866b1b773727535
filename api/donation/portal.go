package donation

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/campaign"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/api/ratelimit"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/internal/thanks"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/collection"
)

// The donor portal (issue 20): a donor asks for a magic link with their e-mail on a campaign's
// portal page (/d/{slug}/portal), the link opens a session of that donor in that organisation, and
// the donor sees their donations and changes them. Every change is the manage area's own (the
// ManageService methods, so the collection workflow's updates), signed "donor:<id>" in the version
// history and confirmed by e-mail.

// PortalDeps are the portal's collaborators.
type PortalDeps struct {
	Manage *ManageService
	Forms  interface {
		FormBySlug(ctx context.Context, slug string) (campaign.Form, error)
	}
	Tenants interface {
		ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	}
	Keys      portal.Keys
	Mail      thanks.Outbox // nil: no e-mails (and so no links)
	PublicURL string
	// Secure marks the session cookie Secure (the site is served over HTTPS).
	Secure bool
}

// PortalHandler serves /api/public/portal.
type PortalHandler struct {
	d PortalDeps
	// Link requests are limited per client address and per e-mail (whether or not it is a donor's,
	// so the limit tells nothing either).
	perIP, perEmail *ratelimit.Limiter
}

// NewPortalHandler builds the handler.
func NewPortalHandler(d PortalDeps) *PortalHandler {
	return &PortalHandler{d: d,
		perIP:    ratelimit.New("portal_link_ip", 10, 10*time.Minute),
		perEmail: ratelimit.New("portal_link_email", 3, 15*time.Minute)}
}

// SessionCookie holds the portal session: only the portal's API paths receive it.
const (
	SessionCookie = "aporta_donor"
	portalPath    = "/api/public/portal"
)

// Mount attaches the routes to g, the public /api/public/portal group (with the CSRF guard).
func (h *PortalHandler) Mount(g *gin.RouterGroup) {
	g.Use(noStore)
	g.POST("/links", h.perIP.PerIP(), endpoint.Handle(h.RequestLink))
	g.POST("/session", h.perIP.PerIP(), endpoint.Handle(h.OpenSession))
	g.DELETE("/session", h.CloseSession)
	s := g.Group("", h.session)
	s.GET("/donations", endpoint.HandleScoped(h.List))
	s.GET("/donations/:uuid", endpoint.HandleScoped(h.Get))
	s.PATCH("/donations/:uuid", endpoint.HandleScoped(h.Patch))
	s.POST("/donations/:uuid/payment_method", endpoint.HandleScoped(h.PaymentMethod))
	s.POST("/donations/:uuid/pause", endpoint.HandleScoped(h.Pause))
	s.POST("/donations/:uuid/resume", endpoint.HandleScoped(h.Resume))
	s.POST("/donations/:uuid/cancel", endpoint.HandleScoped(h.Cancel))
	s.GET("/receipts/:number", h.Receipt)
	s.GET("/summaries/:year", h.Summary)
}

// LinkRequest is POST /api/public/portal/links: the e-mail and the campaign form the donor came
// from (its organisation is the one asked about).
type LinkRequest struct {
	Slug  string `json:"slug"`
	Email string `json:"email"`
}

// LinkSent is the answer to every well-formed link request, whether or not the e-mail is a donor's.
type LinkSent struct {
	Status string `json:"status"` // "sent"
}

func (LinkSent) StatusCode() int { return http.StatusAccepted }

// RequestLink answers POST /links: it e-mails a link when the address is one of the
// organisation's donors, and answers the same either way.
func (h *PortalHandler) RequestLink(ctx context.Context, req *LinkRequest) (*LinkSent, error) {
	email, ok := campaign.NormalizeEmail(req.Email)
	if !ok {
		return nil, apierror.Validation(map[string]string{"email": "donation.email_invalid"})
	}
	f, err := h.d.Forms.FormBySlug(ctx, req.Slug)
	if errors.Is(err, campaign.ErrNotFound) {
		return nil, apierror.NotFound()
	}
	if err != nil {
		return nil, err
	}
	if err := h.perEmail.Take(ctx, f.Scope.OrgID.String()+"/"+email); err != nil {
		return nil, err
	}
	sent := &LinkSent{Status: "sent"}
	donor, err := f.Scope.Store().PortalDonorByEmail(ctx, sharddb.PortalDonorByEmailParams{OrganizationID: f.Scope.OrgID, Email: email})
	if errors.Is(err, dberr.ErrNotFound) || h.d.Mail == nil {
		return sent, nil // not a donor of the organisation: nothing to send, the same answer
	}
	if err != nil {
		return nil, err
	}
	token, err := h.d.Keys.Issue(ctx, f.Scope.Store(), f.Scope.OrgID, donor.ID, portal.PurposeAccess, portal.AccessTTL)
	if err != nil {
		return nil, err
	}
	msg, err := outbox.Compose(email, "donor_portal_link", i18n.FromContext(ctx), map[string]any{
		"Name": donor.FirstName, "Org": f.Org.Name, "URL": portal.URL(h.d.PublicURL, req.Slug, token),
		"Minutes": int(portal.AccessTTL / time.Minute)})
	if err != nil {
		return nil, err
	}
	// The same answer also when the outbox fails: an error here would tell the address is a donor's.
	if err := h.d.Mail.SendOnce(context.WithoutCancel(ctx), "donor-portal-link/"+token, msg); err != nil {
		slog.ErrorContext(ctx, "portal: link e-mail", "error", err)
	}
	return sent, nil
}

// SessionRequest is POST /session: the link's token. (The page posts it: a mail scanner that
// fetches the link does not use it up.)
type SessionRequest struct {
	Token string `json:"token"`
}

// SessionView is the open session: whose it is.
type SessionView struct {
	Organization string `json:"organization"`
	FirstName    string `json:"first_name"`
	cookie       *http.Cookie
}

// Headers sets (or clears) the session cookie.
func (s SessionView) Headers() http.Header {
	if s.cookie == nil {
		return nil
	}
	return http.Header{"Set-Cookie": {s.cookie.String()}}
}

func (h *PortalHandler) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: SessionCookie, Value: value, Path: portalPath, MaxAge: maxAge, HttpOnly: true,
		Secure: h.d.Secure, SameSite: http.SameSiteStrictMode}
}

// OpenSession answers POST /session: it uses the link up and sets the session cookie. A forged,
// expired or used link is 401 portal.link_invalid, alike.
func (h *PortalHandler) OpenSession(ctx context.Context, req *SessionRequest) (*SessionView, error) {
	invalid := apierror.New(http.StatusUnauthorized, "portal.link_invalid")
	orgID, ok := h.d.Keys.LinkOrganization(req.Token)
	if !ok {
		return nil, invalid
	}
	scope, err := h.d.Tenants.ForOrganization(ctx, orgID)
	if err != nil {
		return nil, invalid
	}
	_, donor, err := h.d.Keys.Consume(ctx, scope.Store(), req.Token)
	if errors.Is(err, portal.ErrInvalid) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	session, err := h.d.Keys.OpenSession(ctx, scope.Store(), orgID, donor)
	if err != nil {
		return nil, err
	}
	out := &SessionView{cookie: h.cookie(session, int(portal.SessionTTL/time.Second))}
	if org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID); err == nil {
		out.Organization = org.Name
	}
	out.FirstName, _ = scope.Store().PortalDonorName(ctx, sharddb.PortalDonorNameParams{OrganizationID: scope.OrgID, ID: donor})
	return out, nil
}

// CloseSession answers DELETE /session: the session ends on the server (a copy of its cookie is
// refused from now on) and the cookie is cleared.
func (h *PortalHandler) CloseSession(c *gin.Context) {
	ctx := c.Request.Context()
	v, _ := c.Cookie(SessionCookie)
	if orgID, id, ok := h.d.Keys.ParseSession(v); ok {
		scope, err := h.d.Tenants.ForOrganization(ctx, orgID)
		if err == nil {
			err = h.d.Keys.RevokeSession(ctx, scope.Store(), orgID, id)
		}
		if err != nil {
			apierror.Abort(c, err)
			return
		}
	}
	http.SetCookie(c.Writer, h.cookie("", -1))
	c.Status(http.StatusNoContent)
}

type donorKey struct{}

// donorSession is the session's donor.
type donorSession struct{ OrgID, DonorID uuid.UUID }

// session requires the portal cookie of a session that stands (not revoked, not expired): the
// organisation's scope and the donor go in the context.
func (h *PortalHandler) session(c *gin.Context) {
	expired := apierror.New(http.StatusUnauthorized, "portal.session_expired")
	v, _ := c.Cookie(SessionCookie)
	orgID, id, ok := h.d.Keys.ParseSession(v)
	if !ok {
		apierror.Abort(c, expired)
		return
	}
	scope, err := h.d.Tenants.ForOrganization(c.Request.Context(), orgID)
	if err != nil {
		apierror.Abort(c, expired)
		return
	}
	donor, err := h.d.Keys.SessionDonor(c.Request.Context(), scope.Store(), orgID, id)
	if errors.Is(err, portal.ErrInvalid) {
		apierror.Abort(c, expired)
		return
	}
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	ctx := context.WithValue(c.Request.Context(), donorKey{}, donorSession{OrgID: orgID, DonorID: donor})
	c.Request = c.Request.WithContext(tenants.WithScope(ctx, scope))
	c.Next()
}

// portalDonor is the donor of a portal request, if it is one.
func portalDonor(ctx context.Context) (donorSession, bool) {
	d, ok := ctx.Value(donorKey{}).(donorSession)
	return d, ok
}

// own loads a donation of the session's donor; any other id (another donor's, another
// organisation's, none) is 404.
func (h *PortalHandler) own(ctx context.Context, scope tenants.Scope, id uuid.UUID) (*row, error) {
	d, ok := portalDonor(ctx)
	if !ok {
		return nil, apierror.Unauthorized()
	}
	r, err := loadRow(ctx, scope, id)
	if err != nil || r.Donor.UUID != d.DonorID {
		return nil, apierror.NotFound()
	}
	return r, nil
}

// PortalDonation is a donation as its donor sees it in the portal.
type PortalDonation struct {
	UUID           string             `json:"uuid"`
	Campaign       string             `json:"campaign"`
	Amount         money.Amount       `json:"amount"`
	Frequency      string             `json:"frequency"` // monthly, one_time
	Status         string             `json:"status"`    // active, paused, discarded, pending
	PausedReason   string             `json:"paused_reason,omitempty"`
	PausedLabel    string             `json:"paused_label,omitempty"`
	ResumeOn       string             `json:"resume_on,omitempty"` // YYYY-MM-DD: a pause that ends on its own
	CollectDay     *int               `json:"collect_day"`
	CollectLastDay bool               `json:"collect_last_day"`
	NextChargeDate *string            `json:"next_charge_date"`
	Card           *PortalCard        `json:"card"`
	Charges        []PortalCharge     `json:"charges"`
	Actions        []string           `json:"actions"` // change_card, change_amount, change_collect_day, pause, resume, cancel
	Limits         *PortalLimits      `json:"limits,omitempty"`
	Gateway        *campaign.Checkout `json:"gateway,omitempty"` // where a new card is tokenised (detail only)
}

// PortalCard is the donation's card.
type PortalCard struct {
	Brand    string `json:"brand"`
	LastFour string `json:"last_four"`
	Expiry   string `json:"expiry"`
}

// PortalCharge is one charge attempt, its decline in words.
type PortalCharge struct {
	Date    time.Time    `json:"date"`
	Period  *string      `json:"period"`
	Amount  money.Amount `json:"amount"`
	Status  string       `json:"status"`
	Decline string       `json:"decline,omitempty"`
	Receipt *int64       `json:"receipt,omitempty"` // its receipt's number (GET /receipts/{number})
}

// PortalLimits are the amounts the campaign's form accepts.
type PortalLimits struct {
	Min money.Amount `json:"min"`
	Max money.Amount `json:"max"`
}

// PortalList is GET /donations.
type PortalList struct {
	Donations []PortalDonation `json:"donations"`
}

// List answers GET /donations: the donor's donations in the organisation, newest first.
func (h *PortalHandler) List(ctx context.Context, scope tenants.Scope, _ *struct{}) (*PortalList, error) {
	d, ok := portalDonor(ctx)
	if !ok {
		return nil, apierror.Unauthorized()
	}
	ids, err := scope.Store().PortalDonationIDs(ctx, sharddb.PortalDonationIDsParams{OrganizationID: scope.OrgID, DonorID: d.DonorID})
	if err != nil {
		return nil, err
	}
	out := &PortalList{Donations: []PortalDonation{}}
	for _, id := range ids {
		det, err := detail(ctx, scope, id)
		if err != nil {
			return nil, err
		}
		out.Donations = append(out.Donations, h.view(ctx, det))
	}
	return out, nil
}

// Get answers GET /donations/:uuid, with the limits and the card checkout.
func (h *PortalHandler) Get(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*PortalDonation, error) {
	r, err := h.own(ctx, scope, req.ID)
	if err != nil {
		return nil, err
	}
	return h.full(ctx, scope, r)
}

// full is the donation's portal view with what its change forms need.
func (h *PortalHandler) full(ctx context.Context, scope tenants.Scope, r *row) (*PortalDonation, error) {
	det, err := h.d.Manage.detail(ctx, scope, r.ID)
	if err != nil {
		return nil, err
	}
	v := h.view(ctx, *det)
	if det.Gateway.Gateway != "" {
		v.Gateway = &det.Gateway
	}
	if r.Recurrence == 1 {
		if _, lim, err := h.d.Manage.limits(ctx, scope, r); err == nil {
			v.Limits = &PortalLimits{Min: money.New(lim.Min, r.Currency), Max: money.New(lim.Max, r.Currency)}
		}
	}
	return &v, nil
}

// view is the detail as the donor sees it.
func (h *PortalHandler) view(ctx context.Context, det Detail) PortalDonation {
	l := i18n.FromContext(ctx)
	dd := det.Donation
	v := PortalDonation{UUID: dd.UUID, Campaign: dd.Campaign.Title, Amount: dd.Amount, Frequency: dd.Frequency,
		Status: dd.Status, CollectDay: dd.CollectDay, CollectLastDay: dd.CollectLastDay, NextChargeDate: dd.NextChargeDate,
		Charges: []PortalCharge{}, Actions: []string{}}
	if dd.PausedReason != nil {
		v.PausedReason, v.PausedLabel = *dd.PausedReason, i18n.T(l, "paused_reason."+*dd.PausedReason)
	}
	if pm := det.PaymentMethod; pm != nil {
		v.Card = &PortalCard{Brand: pm.Brand, LastFour: pm.LastFour, Expiry: pm.Expiry}
	}
	for _, t := range det.Transactions {
		v.Charges = append(v.Charges, PortalCharge{Date: t.Date, Period: t.Period, Amount: t.Amount, Status: t.Status, Decline: t.Decline,
			Receipt: t.Receipt})
	}
	if dd.Recurrence != 1 || dd.Status == collection.StatusDiscarded || dd.Status == "pending" || dd.Status == "rejected" {
		return v
	}
	v.Actions = append(v.Actions, "change_card", "change_amount", "change_collect_day")
	switch {
	case dd.Status == collection.StatusActive:
		v.Actions = append(v.Actions, "pause")
	case dd.Status == collection.StatusPaused && v.PausedReason == collection.PausedDonorStopDebit:
		v.Actions = append(v.Actions, "resume")
		if id, err := uuid.Parse(dd.UUID); err == nil {
			if st, err := h.d.Manage.state(ctx, id); err == nil && !st.ResumeAt.IsZero() {
				v.ResumeOn = st.ResumeAt.Format(time.DateOnly)
			}
		}
	}
	v.Actions = append(v.Actions, "cancel")
	return v
}

// PortalPatch is PATCH /donations/:uuid: the amount, the collect day, or both (as the manage area's).
type PortalPatch = PatchRequest

// Patch changes the amount (within the campaign's limits) and the collect day.
func (h *PortalHandler) Patch(ctx context.Context, scope tenants.Scope, req *PortalPatch) (*PortalDonation, error) {
	return h.change(ctx, scope, req.ID, func() (string, error) {
		det, err := h.d.Manage.Patch(ctx, scope, req)
		if err != nil {
			return "", err
		}
		l := i18n.FromContext(ctx)
		var what []string
		if req.Amount != nil {
			what = append(what, i18n.T(l, "portal.change.amount", det.Donation.Amount.Format()))
		}
		if req.CollectDay.Set {
			what = append(what, i18n.T(l, "portal.change.collect_day", collectDayText(l, det.Donation.CollectDay)))
		}
		return joinChanges(what), nil
	})
}

func collectDayText(l i18n.Lang, day *int) string {
	if day == nil {
		return i18n.T(l, "portal.change.last_day")
	}
	return fmt.Sprint(*day)
}

func joinChanges(what []string) string {
	out := ""
	for i, w := range what {
		if i > 0 {
			out += "; "
		}
		out += w
	}
	return out
}

// PaymentMethod answers POST /donations/:uuid/payment_method: the card tokenised in the browser, as on the
// public form. The workflow retries a declined period with it at once.
func (h *PortalHandler) PaymentMethod(ctx context.Context, scope tenants.Scope, req *CardChangeRequest) (*PortalDonation, error) {
	return h.change(ctx, scope, req.ID, func() (string, error) {
		det, err := h.d.Manage.PaymentMethod(ctx, scope, req)
		if err != nil {
			return "", err
		}
		l := i18n.FromContext(ctx)
		if pm := det.PaymentMethod; pm != nil {
			return i18n.T(l, "portal.change.card", pm.Brand, pm.LastFour), nil
		}
		return i18n.T(l, "portal.change.card", "", ""), nil
	})
}

// PortalPauseRequest is POST /donations/:uuid/pause: 1 to 3 months; the donation resumes on its own.
type PortalPauseRequest struct {
	DonationRequest
	Months int `json:"months"`
}

// Validate refuses a pause outside 1–3 months.
func (r *PortalPauseRequest) Validate() error {
	if r.Months < 1 || r.Months > collection.MaxPauseMonths {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "portal.pause_months_invalid",
			Fields: map[string]string{"months": "portal.pause_months_invalid"}}
	}
	return nil
}

// Pause pauses the donation for the months asked.
func (h *PortalHandler) Pause(ctx context.Context, scope tenants.Scope, req *PortalPauseRequest) (*PortalDonation, error) {
	return h.change(ctx, scope, req.ID, func() (string, error) {
		r, err := h.d.Manage.loadOpen(ctx, scope, req.ID)
		if err != nil {
			return "", err
		}
		st, err := h.d.Manage.update(ctx, scope, r, collection.UpdatePause, collection.PauseRequest{Actor: actor(ctx),
			Reason: collection.PausedDonorStopDebit, Months: req.Months})
		if err != nil {
			return "", err
		}
		return i18n.T(i18n.FromContext(ctx), "portal.change.pause", st.ResumeAt.Format("02/01/2006")), nil
	})
}

// Resume ends the donor's own pause before its time (a pause the organisation or a decline set is
// not the donor's to end: a new card resumes a decline's).
func (h *PortalHandler) Resume(ctx context.Context, scope tenants.Scope, req *DonationRequest) (*PortalDonation, error) {
	return h.change(ctx, scope, req.ID, func() (string, error) {
		r, err := h.own(ctx, scope, req.ID)
		if err != nil {
			return "", err
		}
		if r.PausedReason != collection.PausedDonorStopDebit {
			return "", apierror.New(http.StatusConflict, "donation.not_paused")
		}
		if _, err := h.d.Manage.Restore(ctx, scope, req); err != nil {
			return "", err
		}
		return i18n.T(i18n.FromContext(ctx), "portal.change.resume"), nil
	})
}

// Cancel discards the donation with the donor's reason (the page offers a pause first).
func (h *PortalHandler) Cancel(ctx context.Context, scope tenants.Scope, req *ReasonRequest) (*PortalDonation, error) {
	return h.change(ctx, scope, req.ID, func() (string, error) {
		if !slices.Contains(DiscardReasons, req.Reason) {
			return "", &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "portal.cancel_reason_invalid",
				Fields: map[string]string{"reason": "portal.cancel_reason_invalid"}}
		}
		if _, err := h.d.Manage.Discard(ctx, scope, req); err != nil {
			return "", err
		}
		return i18n.T(i18n.FromContext(ctx), "portal.change.cancel"), nil
	})
}

// change runs a change of one of the donor's donations (404 for any other), e-mails the donor
// what changed and answers the donation.
func (h *PortalHandler) change(ctx context.Context, scope tenants.Scope, id uuid.UUID, do func() (string, error)) (*PortalDonation, error) {
	if _, err := h.own(ctx, scope, id); err != nil {
		return nil, err
	}
	what, err := do()
	if err != nil {
		return nil, err
	}
	r, err := h.own(ctx, scope, id)
	if err != nil {
		return nil, err
	}
	h.confirm(ctx, scope, r, what)
	return h.full(ctx, scope, r)
}

// confirm e-mails the donor the change; a failure is logged, the change stands.
func (h *PortalHandler) confirm(ctx context.Context, scope tenants.Scope, r *row, what string) {
	if h.d.Mail == nil {
		return
	}
	n, err := scope.Store().DonationNotice(ctx, sharddb.DonationNoticeParams{OrganizationID: scope.OrgID, ID: r.ID})
	if err == nil {
		var msg outbox.Message
		msg, err = outbox.Compose(n.Email, "donor_portal_change", i18n.FromContext(ctx), map[string]any{
			"Name": n.FirstName, "Org": n.OrganizationName, "Campaign": n.Title, "Change": what,
			"URL": portal.URL(h.d.PublicURL, n.Slug, "")})
		if err == nil {
			err = h.d.Mail.SendOnce(context.WithoutCancel(ctx), "donor-portal-change/"+uuid.NewString(), msg)
		}
	}
	if err != nil {
		slog.ErrorContext(ctx, "portal: change confirmation", "donation_id", r.ID, "error", err)
	}
}
