// Package courier is the HTTP side of the outbox: the endpoint Kratos's courier posts its messages to
// and, in dev and test, the reader behind /dev/mailbox.
package courier

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// CourierUser is the basic-auth user Kratos's courier posts as (deploy/kratos/kratos.yml).
const CourierUser = "kratos"

// Routes mounts the courier endpoint and, in dev and test only, the outbox reader, on public: a
// group without the card guard (Kratos's courier posts the messages it wrote, not text from donors
// or operators), so not one of endpoint.Groups.
//
//	POST /internal/courier/messages   (basic auth kratos:APORTA_COURIER_SECRET) a Kratos message
//	GET  /dev/api/outbox?to=&limit=   messages, newest first (dev/test only)
func Routes(public *gin.RouterGroup, cfg *config.Config, t *tenants.Tenants) *outbox.Outbox {
	o := outbox.New(t.Directory(), cfg)
	h := handler{o}
	// Decoded leniently (Kratos decides the fields), so not through endpoint.Handle's strict body.
	public.POST("/internal/courier/messages", courierAuth(cfg.CourierSecret), h.courier)
	if cfg.IsDev() {
		public.GET("/dev/api/outbox", endpoint.Handle(h.list))
	}
	return o
}

func courierAuth(secret string) gin.HandlerFunc {
	return func(c *gin.Context) {
		user, pass, ok := c.Request.BasicAuth()
		if secret == "" || !ok ||
			subtle.ConstantTimeCompare([]byte(user), []byte(CourierUser)) != 1 ||
			subtle.ConstantTimeCompare([]byte(pass), []byte(secret)) != 1 {
			c.Header("WWW-Authenticate", `Basic realm="courier"`)
			apierror.Abort(c, apierror.Unauthorized())
			return
		}
		c.Next()
	}
}

type handler struct{ o *outbox.Outbox }

func (h handler) courier(c *gin.Context) {
	var in outbox.KratosMessage
	// Not request.JSON: Kratos decides the fields, and a new one must not bounce a code.
	if err := json.NewDecoder(c.Request.Body).Decode(&in); err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return
	}
	in.MessageType = strings.ToLower(in.MessageType)
	if in.MessageType != outbox.TypeSMS {
		in.MessageType = outbox.TypeEmail
	}
	if strings.TrimSpace(in.Recipient) == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"recipient": "courier.recipient_required"}))
		return
	}
	msg := outbox.Message{
		Recipient: strings.TrimSpace(in.Recipient), MessageType: in.MessageType, Subject: in.Subject,
		Body: in.Body, TemplateType: in.TemplateType, TemplateData: in.TemplateData,
	}
	if msg.MessageType == outbox.TypeEmail {
		composed, err := outbox.ComposeKratos(in)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		composed.Recipient, composed.TemplateType, composed.TemplateData = msg.Recipient, msg.TemplateType, msg.TemplateData
		msg = composed
	}
	m, err := h.o.Send(c.Request.Context(), msg)
	if err != nil {
		// Kratos retries a message the outbox could not keep.
		apierror.Abort(c, apierror.New(http.StatusBadGateway, "courier.delivery_failed"))
		return
	}
	c.JSON(http.StatusOK, gin.H{"id": m.ID})
}

// ListRequest is GET /dev/api/outbox?to=…&limit=….
type ListRequest struct {
	To    string `query:"to" json:"-"`
	Limit string `query:"limit" json:"-"` // anything but 1…500 is the default, 50
}

// Messages is the outbox reader's answer, newest first.
type Messages struct {
	Messages []outbox.Message `json:"messages"`
}

// list answers the messages to one address (or all), newest first.
func (h handler) list(ctx context.Context, r *ListRequest) (*Messages, error) {
	to := strings.TrimSpace(r.To)
	// A '+' left unescaped in a query string arrives as a space: "+54911…" → " 54911…".
	if strings.HasPrefix(r.To, " ") && to != "" && to[0] >= '0' && to[0] <= '9' {
		to = "+" + to
	}
	limit, _ := strconv.Atoi(r.Limit)
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	ms, err := h.o.List(ctx, to, limit)
	if err != nil {
		return nil, err
	}
	if ms == nil {
		ms = []outbox.Message{}
	}
	return &Messages{Messages: ms}, nil
}

func init() {
	i18n.Register(i18n.Catalog{
		"courier.recipient_required": {i18n.ES: "Falta el destinatario.", i18n.EN: "The recipient is missing.", i18n.PT: "Falta o destinatário."},
		"courier.delivery_failed":    {i18n.ES: "No pudimos enviar el mensaje. Intenta de nuevo en unos minutos.", i18n.EN: "We could not send the message. Please try again in a few minutes.", i18n.PT: "Não conseguimos enviar a mensagem. Tente novamente em alguns minutos."},
	})
}
