// Package idempotency binds an Idempotency-Key header to the request that first used it (its
// method, path, caller and body): the key with another request is refused with a 409
// idempotency.key_reused. With Replay the same request answers what the first one answered
// without running again (idempotency.in_progress while the first still runs); with Bind it runs
// again, for handlers that replay on their own. Only successful requests keep their key (for
// Retention): a failed request changed nothing, so its retry runs again. Requests without the
// header are not affected.
package idempotency

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
)

// Header is the request header carrying the client's key.
const Header = "Idempotency-Key"

// Retention is how long a key stays bound to its request and answer.
const Retention = 24 * time.Hour

// maxKeyLen bounds a key (clients send a UUID).
const maxKeyLen = 255

// Resolve gives the store, the organisation and the caller a request's key belongs to.
type Resolve func(c *gin.Context) (db *sharddb.Queries, org uuid.UUID, caller string, err error)

// ByOrganization keeps keys in the shard of the organisation authz.Require checked the permit on
// (the scope it put in the request context), bound to the signed-in caller.
func ByOrganization(c *gin.Context) (*sharddb.Queries, uuid.UUID, string, error) {
	scope, err := authz.Scope(c.Request.Context())
	if err != nil {
		return nil, uuid.Nil, "", err
	}
	return scope.Store(), scope.OrgID, authz.User(c).ID.String(), nil
}

// Public keeps the keys of unauthenticated requests in the directory, for no organisation. Its
// idempotency_keys table is the shards' own, so the shard store's queries run on it.
func Public(directory *pgxpool.Pool) Resolve {
	return func(*gin.Context) (*sharddb.Queries, uuid.UUID, string, error) {
		return sharddb.Store(directory), uuid.Nil, "", nil
	}
}

// Replay is the middleware that answers a repeated request with the first one's answer. It runs
// after authentication and permission checks, so resolve can read the caller.
func Replay(secret []byte, resolve Resolve) gin.HandlerFunc { return bind(secret, resolve, true) }

// Bind is the middleware that only refuses a key reused with another request; the same request
// runs again (signup signs the caller in anew: a stored answer could not carry that session).
func Bind(secret []byte, resolve Resolve) gin.HandlerFunc { return bind(secret, resolve, false) }

func bind(secret []byte, resolve Resolve, replays bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		key := strings.TrimSpace(c.GetHeader(Header))
		if key == "" {
			c.Next()
			return
		}
		if len(key) > maxKeyLen {
			apierror.Abort(c, apierror.BadRequest("idempotency.key_invalid"))
			return
		}
		body, err := request.Body(c)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), keyCtx{}, key))
		db, org, caller, err := resolve(c)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		hash := requestHash(secret, c.Request.Method, c.Request.URL.RequestURI(), caller, body)
		ctx := c.Request.Context()
		_, err = db.ClaimIdempotencyKey(ctx, sharddb.ClaimIdempotencyKeyParams{
			OrganizationID: org, Key: key, RequestHash: hash, RetentionSeconds: Retention.Seconds(),
		})
		if errors.Is(err, dberr.ErrNotFound) {
			held(c, db, org, key, hash, replays)
			return
		}
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		var rec *recorder
		if replays {
			rec = &recorder{ResponseWriter: c.Writer}
			c.Writer = rec
		}
		c.Next()
		// Kept even when the client went away: its retry must find the answer.
		ctx = context.WithoutCancel(ctx)
		if st := c.Writer.Status(); st >= 200 && st < 300 {
			var answer []byte
			if rec != nil {
				answer = rec.body.Bytes()
			}
			status, contentType := int16(st), c.Writer.Header().Get("Content-Type")
			err = db.CompleteIdempotencyKey(ctx, sharddb.CompleteIdempotencyKeyParams{
				OrganizationID: org, Key: key, RequestHash: hash, Status: &status, ContentType: &contentType, Body: answer,
			})
		} else {
			err = db.ReleaseIdempotencyKey(ctx, sharddb.ReleaseIdempotencyKeyParams{OrganizationID: org, Key: key, RequestHash: hash})
		}
		if err == nil {
			err = db.PurgeIdempotencyKeys(ctx, sharddb.PurgeIdempotencyKeysParams{OrganizationID: org, RetentionSeconds: Retention.Seconds()})
		}
		if err != nil {
			slog.ErrorContext(ctx, "idempotency: keeping the answer", "error", err)
		}
	}
}

type keyCtx struct{}

// Key is the request's Idempotency-Key ("" when it has none), once Bind or Replay accepted it.
func Key(ctx context.Context) string {
	k, _ := ctx.Value(keyCtx{}).(string)
	return k
}

// held answers a request whose key an earlier request holds.
func held(c *gin.Context, db *sharddb.Queries, org uuid.UUID, key string, hash []byte, replays bool) {
	k, err := db.HeldIdempotencyKey(c.Request.Context(), sharddb.HeldIdempotencyKeyParams{OrganizationID: org, Key: key})
	switch {
	case err != nil && !errors.Is(err, dberr.ErrNotFound):
		apierror.Abort(c, err)
	case err == nil && !bytes.Equal(k.RequestHash, hash):
		apierror.Abort(c, apierror.New(http.StatusConflict, "idempotency.key_reused"))
	case !replays:
		c.Next()
	case err != nil || k.Status == nil: // running (or failed and released just now): retry later
		apierror.Abort(c, apierror.New(http.StatusConflict, "idempotency.in_progress"))
	default:
		c.Header("Idempotent-Replayed", "true")
		c.Data(int(*k.Status), deref(k.ContentType), k.Body)
		c.Abort()
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// requestHash identifies a request: what it does (method and path with query), who asks, and its
// body; a NUL (which none of the first three holds) ends each of the first three. It is keyed
// with the server secret: a body may hold a password, which a plain hash would expose to guessing.
func requestHash(secret []byte, method, uri, caller string, body []byte) []byte {
	h := hmac.New(sha256.New, secret)
	for _, s := range []string{method, uri, caller} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum(nil)
}

// recorder keeps a copy of the answer written through it.
type recorder struct {
	gin.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(b []byte) (int, error) {
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

func (r *recorder) WriteString(s string) (int, error) {
	r.body.WriteString(s)
	return r.ResponseWriter.WriteString(s)
}

func init() {
	i18n.Register(i18n.Catalog{
		"idempotency.key_reused":  {i18n.ES: "Esta clave Idempotency-Key ya se usó con otra solicitud: usa una clave nueva para cada operación.", i18n.EN: "This Idempotency-Key was already used with another request: use a new key for each operation.", i18n.PT: "Esta chave Idempotency-Key já foi usada com outra solicitação: use uma chave nova para cada operação."},
		"idempotency.in_progress": {i18n.ES: "La solicitud con esta clave Idempotency-Key todavía se está procesando: reinténtala en unos segundos.", i18n.EN: "The request with this Idempotency-Key is still being processed: retry in a few seconds.", i18n.PT: "A solicitação com esta chave Idempotency-Key ainda está sendo processada: tente novamente em alguns segundos."},
		"idempotency.key_invalid": {i18n.ES: "La clave Idempotency-Key puede tener hasta 255 caracteres.", i18n.EN: "The Idempotency-Key may have up to 255 characters.", i18n.PT: "A chave Idempotency-Key pode ter até 255 caracteres."},
	})
}
