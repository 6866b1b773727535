package outbox

import (
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/config"
	"github.com/aporta/aporta/api/i18n"
	"github.com/aporta/aporta/tenants"
)

// CourierUser is the basic-auth user Kratos's courier posts as (deploy/kratos/kratos.yml).
const CourierUser = "kratos"

// Routes mounts the courier endpoint and, in dev and test only, the outbox reader.
//
//	POST /internal/courier/messages   (basic auth kratos:APORTA_COURIER_SECRET) a Kratos message
//	GET  /dev/api/outbox?to=&limit=   messages, newest first (dev/test only)
func Routes(public *gin.RouterGroup, cfg *config.Config, t *tenants.Tenants) *Outbox {
	o := New(t.Directory(), cfg)
	public.POST("/internal/courier/messages", courierAuth(cfg.CourierSecret), o.courier)
	if cfg.IsDev() {
		public.GET("/dev/api/outbox", o.list)
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

// courierMessage is what Kratos's jsonnet body "function(ctx) ctx" posts.
type courierMessage struct {
	Recipient    string          `json:"recipient"`
	Subject      string          `json:"subject"`
	Body         string          `json:"body"`
	TemplateType string          `json:"template_type"`
	TemplateData json.RawMessage `json:"template_data"`
	MessageType  string          `json:"message_type"`
}

func (o *Outbox) courier(c *gin.Context) {
	var in courierMessage
	// Not request.JSON: Kratos decides the fields, and a new one must not bounce a code.
	if err := json.NewDecoder(c.Request.Body).Decode(&in); err != nil {
		apierror.Abort(c, apierror.BadRequest("malformed_json"))
		return
	}
	in.MessageType = strings.ToLower(in.MessageType)
	if in.MessageType != TypeSMS {
		in.MessageType = TypeEmail
	}
	if strings.TrimSpace(in.Recipient) == "" {
		apierror.Abort(c, apierror.Validation(map[string]string{"recipient": "recipient_required"}))
		return
	}
	msg := Message{
		Recipient: strings.TrimSpace(in.Recipient), MessageType: in.MessageType, Subject: in.Subject,
		Body: in.Body, TemplateType: in.TemplateType, TemplateData: in.TemplateData,
	}
	if msg.MessageType == TypeEmail {
		composed, err := composeKratos(in)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		composed.Recipient, composed.TemplateType, composed.TemplateData = msg.Recipient, msg.TemplateType, msg.TemplateData
		msg = composed
	}
	m, err := o.Send(c.Request.Context(), msg)
	if err != nil {
		// Kratos retries a message the outbox could not keep.
		apierror.Abort(c, apierror.New(http.StatusBadGateway, "delivery_failed"))
		return
	}
	c.JSON(http.StatusOK, gin.H{"id": m.ID})
}

// kratosCodeFlows are the flows whose "<flow>_code_valid" messages templates/auth_code.tmpl writes.
var kratosCodeFlows = map[string]bool{"verification": true, "recovery": true, "login": true, "registration": true}

// composeKratos writes a Kratos e-mail from Aporta's templates in the identity's language: its codes,
// the "no account for this address" notices, and any other message as Kratos's own text.
func composeKratos(in courierMessage) (Message, error) {
	var data struct {
		Identity struct {
			Traits struct{ Locale string } `json:"traits"`
		} `json:"identity"`
		Traits struct{ Locale string } `json:"traits"` // registration codes carry the traits alone
	}
	_ = json.Unmarshal(in.TemplateData, &data)
	lang, ok := i18n.Parse(data.Identity.Traits.Locale)
	if !ok {
		lang, _ = i18n.Parse(data.Traits.Locale)
	}
	flow, valid := strings.CutSuffix(in.TemplateType, "_code_valid")
	switch code := ExtractCode(in.TemplateData); {
	case valid && kratosCodeFlows[flow] && code != "":
		return Compose(in.Recipient, "auth_code", lang, map[string]string{"Flow": flow, "Code": code})
	case in.TemplateType == "recovery_code_invalid" || in.TemplateType == "verification_code_invalid":
		return Compose(in.Recipient, "auth_unknown_address", lang, nil)
	default:
		return Compose(in.Recipient, "kratos_message", lang, map[string]string{"Subject": in.Subject, "Body": in.Body})
	}
}

// list answers GET /dev/api/outbox?to=…&limit=… with {"messages": [...]}, newest first.
func (o *Outbox) list(c *gin.Context) {
	to := strings.TrimSpace(c.Query("to"))
	// A '+' left unescaped in a query string arrives as a space: "+54911…" → " 54911…".
	if raw := c.Query("to"); strings.HasPrefix(raw, " ") && to != "" && to[0] >= '0' && to[0] <= '9' {
		to = "+" + to
	}
	limit, _ := strconv.Atoi(c.DefaultQuery("limit", "50"))
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	ms, err := o.List(c.Request.Context(), to, limit)
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	if ms == nil {
		ms = []Message{}
	}
	c.JSON(http.StatusOK, gin.H{"messages": ms})
}
