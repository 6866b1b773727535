package collection

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/aporta/aporta/internal/collectday"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/internal/portal"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
	"github.com/aporta/aporta/workflows/internal/orgscope"
)

// EmailCardDeclined is the e-mail that asks a donor to update the card of a declined charge.
const EmailCardDeclined = "donation_card_declined"

// versionDeclineNotice versions the decline e-mail: version 1 runs the NotifyDecline activity at a
// fixable decline (runs recorded before it never did).
const versionDeclineNotice = "decline-notice"

// Outbox queues an e-mail once per key (outbox.Mailer).
type Outbox interface {
	SendOnce(ctx context.Context, key string, msg outbox.Message) error
}

// Notices e-mails donors about their donation's charges.
type Notices struct {
	Tenants   *tenants.Tenants
	Keys      portal.Keys // signs the portal link the e-mail carries
	Mail      Outbox      // nil: no e-mails (workers of tests that do not read them)
	PublicURL string
}

// DeclineNotice is one declined attempt the donor can fix.
type DeclineNotice struct {
	OrganizationID string
	DonationID     string
	Period         string
	Attempt        int
	Decline        string // gateway.Decline, "" when a paused reason says it
	PausedReason   string // set when the decline paused the donation
	Final          bool   // the last retry comes next (or none: the donation paused)
}

// NotifyDecline e-mails the donor a link into the portal to update the card, once per attempt.
func (n *Notices) NotifyDecline(ctx context.Context, in DeclineNotice) error {
	if n.Mail == nil {
		return nil
	}
	scope, did, err := orgscope.Row(ctx, n.Tenants, in.OrganizationID, "id", in.DonationID)
	if err != nil {
		return err
	}
	r, err := scope.Store().DonationNotice(ctx, sharddb.DonationNoticeParams{OrganizationID: scope.OrgID, ID: did})
	if err != nil {
		return err
	}
	lang, _ := i18n.Parse(r.Locale)
	token, err := n.Keys.Issue(ctx, scope.Store(), scope.OrgID, r.DonorID, portal.PurposeDeclined, portal.DeclineTTL)
	if err != nil {
		return err
	}
	why := i18n.T(lang, "decline."+in.Decline)
	if in.PausedReason != "" {
		why = i18n.T(lang, "paused_reason."+in.PausedReason)
	}
	msg, err := outbox.Compose(r.Email, EmailCardDeclined, lang, map[string]any{
		"Name": r.FirstName, "Org": r.OrganizationName, "Campaign": r.Title,
		"Amount": money.New(r.AmountMinor, r.Currency).Format(), "Reason": why, "Paused": in.PausedReason != "",
		"Final": in.Final, "URL": portal.URL(n.PublicURL, r.Slug, token),
	})
	if err != nil {
		return temporal.NewNonRetryableApplicationError("compose", "invalid_template", err)
	}
	key := fmt.Sprintf("%s/%s/%s/%d", EmailCardDeclined, in.DonationID, in.Period, in.Attempt)
	if err := n.Mail.SendOnce(ctx, key, msg); err != nil {
		return err
	}
	slog.InfoContext(ctx, "collection: decline e-mail queued", "donation_id", in.DonationID, "period", in.Period, "attempt", in.Attempt)
	return nil
}

// noticeDecline e-mails the donor about a declined attempt when another card (or funds) would fix
// it: res paused the donation (paused), or its retries go on (final: the last one comes next).
func (d *donation) noticeDecline(p collectday.Period, res ChargeResult, paused, final bool) {
	decline := gateway.DeclineOf(res.StatusDetail)
	if paused && !slices.Contains(CardReasons, res.PausedReason) || !paused && !decline.Fixable() {
		return
	}
	if workflow.GetVersion(d.ctx, versionDeclineNotice, workflow.DefaultVersion, 1) < 1 {
		return
	}
	ctx := workflow.WithActivityOptions(d.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute, ScheduleToCloseTimeout: time.Hour,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute},
	})
	n := DeclineNotice{OrganizationID: d.st.OrganizationID, DonationID: d.st.DonationID, Period: p.String(),
		Attempt: res.Attempt, Decline: string(decline), Final: paused || final}
	if paused {
		n.PausedReason = res.PausedReason
	}
	if err := workflow.ExecuteActivity(ctx, d.notices.NotifyDecline, n).Get(ctx, nil); err != nil {
		workflow.GetLogger(d.ctx).Error("decline e-mail", "period", n.Period, "error", err)
	}
}
