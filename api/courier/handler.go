// Package courier is the HTTP side of the outbox: the endpoint Kratos's courier posts its messages to
// and, in dev and test, the reader behind /dev/mailbox.
package courier

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/outbox"
	"github.com/aporta/aporta/tenants"
)

// CourierUser is the basic-auth user Kratos's courier posts as (deploy/kratos/kratos.yml).
const CourierUser = "kratos"

// Routes mounts the courier endpoint and, in dev and test only, the outbox reader.
//
//	POST /internal/courier/messages   (basic auth kratos:APORTA_COURIER_SECRET) a Kratos message
//	GET  /dev/api/outbox?to=&limit=   messages, newest first (dev/test only)
func Routes(public *gin.RouterGroup, cfg *config.Config, t *tenants.Tenants) *outbox.Outbox {
	o := outbox.New(t.Directory(), cfg)
	h := handler{o}
	public.POST("/internal/courier/messages", courierAuth(cfg.CourierSecret), h.courier)
	if cfg.IsDev() {
		public.GET("/dev/api/outbox", h.list)
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
		apierror.Abort(c, apierror.Validation(map[string]string{"recipient": "recipient_required"}))
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
		apierror.Abort(c, apierror.New(http.StatusBadGateway, "delivery_failed"))
		return
	}
	c.JSON(http.StatusOK, gin.H{"id": m.ID})
}

// list answers GET /dev/api/outbox?to=…&limit=… with {"messages": [...]}, newest first.
func (h handler) list(c *gin.Context) {
	to := strings.TrimSpace(c.Query("to"))
	// A '+' left unescaped in a query string arrives as a space: "+54911…" → " 54911…".
	if raw := c.Query("to"); strings.HasPrefix(raw, " ") && to != "" && to[0] >= '0' && to[0] <= '9' {
		to = "+" + to
	}
	limit, _ := strconv.Atoi(c.DefaultQuery("limit", "50"))
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	ms, err := h.o.List(c.Request.Context(), to, limit)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if ms == nil {
		ms = []outbox.Message{}
	}
	c.JSON(http.StatusOK, gin.H{"messages": ms})
}
