package user

import (
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/outbox"
)

// TemplateInvitation is the outbox template type of invitation e-mails.
const TemplateInvitation = "user_invitation"

// sendInvitation makes a Kratos recovery code for the identity (Kratos sends nothing itself) and
// e-mails it with a link to the recovery page, where the person enters the code and sets a
// password. The e-mail is written in the inviting administrator's language.
func (h *Handler) sendInvitation(c *gin.Context, id uuid.UUID, email string) error {
	ctx := c.Request.Context()
	link, code, err := h.kratos.RecoveryCode(ctx, id, InvitationLifetime.String())
	if err != nil {
		return err
	}
	// The link Kratos returns is its own endpoint (…/self-service/recovery?flow=ID); the e-mail
	// points at the web app's recovery page for the same flow.
	pageURL := h.cfg.PublicURL + "/account/recovery"
	if u, err := url.Parse(link); err == nil && u.Query().Get("flow") != "" {
		pageURL += "?flow=" + url.QueryEscape(u.Query().Get("flow"))
	}
	org, err := h.tenants.GetOrganization(ctx, authz.Organization(c).OrganizationID)
	if err != nil {
		return err
	}
	inviter := authz.User(c)
	l := apierror.Lang(c)
	days := int(InvitationLifetime.Hours() / 24)
	data, _ := json.Marshal(map[string]any{
		"recovery_code":     code,
		"recovery_link":     link,
		"recovery_page_url": pageURL,
		"organization_name": org.Name,
		"invited_by":        inviter.Email,
		"identity_id":       id.String(),
		"lang":              string(l),
	})
	msg, err := outbox.Compose(email, TemplateInvitation, l, map[string]any{
		"Inviter": fullName(inviter.FirstName, inviter.LastName, inviter.Email), "Org": org.Name,
		"URL": pageURL, "Code": code, "Days": days,
	})
	if err != nil {
		return err
	}
	msg.TemplateData, msg.Code = data, code
	_, err = h.outbox.Send(ctx, msg)
	if err != nil {
		return fmt.Errorf("invitation e-mail: %w", err)
	}
	return nil
}

func fullName(first, last, fallback string) string {
	if first == "" && last == "" {
		return fallback
	}
	return first + " " + last
}
