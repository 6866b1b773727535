// Package endpoint gives every API endpoint one shape: a request struct whose fields come from the
// path (`path:"id"`), the query string (`query:"page"`) and the JSON body (`json:"…"`), a function
// Execute(ctx, *Req) (*Resp, error) that knows nothing of HTTP, and Handle, the one adapter that
// decodes, validates, runs and writes. Errors of any kind are written by apierror in the request's
// language; the signed-in user and organisation come from ctx (authz.CurrentUser,
// authz.CurrentOrganization), and HandleScoped passes the shard scope to endpoints behind authz.Require.
package endpoint

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/request"
	"github.com/aporta/aporta/tenants"
)

// Validator is a request that checks itself once decoded; its error (an *apierror.Error naming the
// fields, usually) is written as it is and Execute does not run.
type Validator interface{ Validate() error }

// StatusCoder is a response answered with a status other than 200 (201 for a creation, say).
type StatusCoder interface{ StatusCode() int }

// Headered is a response that also sets headers (a page's pagination counts, say).
type Headered interface{ Headers() http.Header }

// Execute is an endpoint's logic.
type Execute[Req, Resp any] func(ctx context.Context, req *Req) (*Resp, error)

// Handle adapts exec to Gin. A nil response with no error answers 204.
func Handle[Req, Resp any](exec Execute[Req, Resp]) gin.HandlerFunc {
	b := binderFor[Req]()
	return func(c *gin.Context) {
		req := new(Req)
		if err := b.bind(c, req); err != nil {
			apierror.Abort(c, err)
			return
		}
		if v, ok := any(req).(Validator); ok {
			if err := v.Validate(); err != nil {
				apierror.Abort(c, err)
				return
			}
		}
		resp, err := exec(c.Request.Context(), req)
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		if resp == nil {
			c.Status(http.StatusNoContent)
			return
		}
		if h, ok := any(resp).(Headered); ok {
			for k, vs := range h.Headers() {
				c.Writer.Header()[k] = vs
			}
		}
		status := http.StatusOK
		if s, ok := any(resp).(StatusCoder); ok {
			status = s.StatusCode()
		}
		if raw, ok := any(resp).(*json.RawMessage); ok { // encoded already (a kept answer): not parsed again
			c.Data(status, "application/json; charset=utf-8", *raw)
			return
		}
		c.JSON(status, resp)
	}
}

// Scoped is the logic of an endpoint mounted behind a middleware that stores the organisation's
// shard scope (authz.Require after its permission check, the donor portal's session, the agency
// work area): it gets that scope, so it never looks one up or runs without one.
type Scoped[Req, Resp any] func(ctx context.Context, scope tenants.Scope, req *Req) (*Resp, error)

// HandleScoped adapts exec like Handle, passing it the request's scope. Mounted without such a
// middleware it answers an internal error, never another organisation's data.
func HandleScoped[Req, Resp any](exec Scoped[Req, Resp]) gin.HandlerFunc {
	return Handle(func(ctx context.Context, req *Req) (*Resp, error) {
		scope, err := authz.Scope(ctx)
		if err != nil {
			return nil, err
		}
		return exec(ctx, scope, req)
	})
}

// decodeBody reads the JSON body of a request that may carry one. An empty body leaves the
// request's body fields at their zero values, for actions whose body is optional.
func decodeBody(c *gin.Context, req any) error {
	switch c.Request.Method {
	case http.MethodGet, http.MethodHead, http.MethodDelete:
		return nil
	}
	if c.Request.ContentLength == 0 {
		return nil
	}
	return request.JSON(c, req)
}
