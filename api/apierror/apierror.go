// Package apierror is the single place where API errors are typed and written. Every error response
// is {"error": {"code": "...", "message": "...", "fields": {...}}}: a stable code for programs and a
// message in the request's language for people.
package apierror

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
)

// Error is an API error. Code is a message code registered in i18n; Params fill its text.
type Error struct {
	Status int
	Code   string
	Params []any
	// Fields maps a request field to its own message code, for forms that show errors under fields.
	Fields map[string]string
	// Header is added to the response (Retry-After of a refused attempt).
	Header http.Header
	Err    error // the cause, logged, never sent
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Code + ": " + e.Err.Error()
	}
	return e.Code
}

func (e *Error) Unwrap() error { return e.Err }

// New builds an error with a status and message code.
func New(status int, code string, params ...any) *Error {
	return &Error{Status: status, Code: code, Params: params}
}

// Common errors.
func BadRequest(code string, params ...any) *Error {
	return New(http.StatusBadRequest, code, params...)
}
func NotFound() *Error     { return New(http.StatusNotFound, "not_found") }
func Forbidden() *Error    { return New(http.StatusForbidden, "forbidden") }
func Unauthorized() *Error { return New(http.StatusUnauthorized, "unauthorized") }
func Validation(fields map[string]string) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed", Fields: fields}
}
func Internal(err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: "internal", Err: err}
}

// Invalid is Validation(fields) when a field is invalid, nil when none is: the tail of a Validate.
func Invalid(fields map[string]string) error {
	if len(fields) > 0 {
		return Validation(fields)
	}
	return nil
}

type body struct {
	Error payload `json:"error"`
}

type payload struct {
	Code      string            `json:"code"`
	Message   string            `json:"message"`
	Fields    map[string]string `json:"fields,omitempty"`
	RequestID string            `json:"request_id,omitempty"`
}

// RequestIDKey is the gin context key the request-id middleware sets.
const RequestIDKey = "aporta.request_id"

// Lang returns the request's language: the one the locale middleware put in the request's context,
// where endpoints read it too (i18n.FromContext).
func Lang(c *gin.Context) i18n.Lang { return i18n.FromContext(c.Request.Context()) }

// From is err as an API error: an *Error as it is, the database's errors (dberr) as 404, 409 and
// 422, anything else as internal.
func From(err error) *Error {
	var e *Error
	var conflict *dberr.Conflict
	var invalid *dberr.Invalid
	switch {
	case errors.As(err, &e):
		return e
	case errors.Is(err, dberr.ErrNotFound):
		return &Error{Status: http.StatusNotFound, Code: "not_found", Err: err}
	case errors.As(err, &conflict):
		return &Error{Status: http.StatusConflict, Code: "request.conflict", Err: err}
	case errors.As(err, &invalid):
		return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed", Err: err}
	}
	return Internal(err)
}

// Abort writes err as the response and stops the handler chain. Errors that are not *Error are
// internal: logged with the request id, answered with a generic message.
func Abort(c *gin.Context, err error) {
	e := From(err)
	if e.Status >= 500 {
		slog.ErrorContext(c.Request.Context(), "request failed", "error", err, "request_id", c.GetString(RequestIDKey))
	}
	for k, vs := range e.Header {
		for _, v := range vs {
			c.Writer.Header().Add(k, v)
		}
	}
	l := Lang(c)
	p := payload{Code: e.Code, Message: i18n.T(l, e.Code, e.Params...), RequestID: c.GetString(RequestIDKey)}
	if len(e.Fields) > 0 {
		p.Fields = make(map[string]string, len(e.Fields))
		for f, code := range e.Fields {
			p.Fields[f] = i18n.T(l, code)
		}
	}
	c.AbortWithStatusJSON(e.Status, body{Error: p})
}

func init() {
	i18n.Register(i18n.Catalog{
		"not_found":          {i18n.ES: "No encontramos lo que buscas.", i18n.EN: "We could not find what you are looking for.", i18n.PT: "Não encontramos o que você procura."},
		"forbidden":          {i18n.ES: "No tienes permiso para realizar esta acción.", i18n.ESAR: "No tenés permiso para realizar esta acción.", i18n.EN: "You do not have permission to do this.", i18n.PT: "Você não tem permissão para fazer isso."},
		"unauthorized":       {i18n.ES: "Inicia sesión para continuar.", i18n.ESAR: "Iniciá sesión para continuar.", i18n.EN: "Sign in to continue.", i18n.PT: "Entre para continuar."},
		"internal":           {i18n.ES: "Ocurrió un error inesperado. Intenta de nuevo en unos minutos.", i18n.ESAR: "Ocurrió un error inesperado. Intentá de nuevo en unos minutos.", i18n.EN: "Something went wrong on our side. Please try again in a few minutes.", i18n.PT: "Ocorreu um erro inesperado. Tente novamente em alguns minutos."},
		"validation_failed":  {i18n.ES: "Verifica que todos los campos requeridos estén completos y sean válidos", i18n.EN: "Check that all required fields are complete and valid", i18n.PT: "Verifique se todos os campos obrigatórios estão completos e válidos"},
		"malformed_json":     {i18n.ES: "El cuerpo de la solicitud no es un JSON válido.", i18n.EN: "The request body is not valid JSON.", i18n.PT: "O corpo da solicitação não é um JSON válido."},
		"body_too_large":     {i18n.ES: "La solicitud es demasiado grande (máximo %s).", i18n.EN: "The request is too large (maximum %s).", i18n.PT: "A solicitação é grande demais (máximo %s)."},
		"unsupported_media":  {i18n.ES: "Envía la solicitud como JSON (Content-Type: application/json).", i18n.EN: "Send the request as JSON (Content-Type: application/json).", i18n.PT: "Envie a solicitação como JSON (Content-Type: application/json)."},
		"csrf_invalid":       {i18n.ES: "Tu sesión de la página expiró. Recarga la página e inténtalo de nuevo.", i18n.EN: "Your page session expired. Reload the page and try again.", i18n.PT: "A sessão da página expirou. Recarregue a página e tente novamente."},
		"too_many_requests":  {i18n.ES: "Demasiados intentos. Espera un momento antes de volver a intentarlo.", i18n.EN: "Too many attempts. Wait a moment before trying again.", i18n.PT: "Muitas tentativas. Aguarde um momento antes de tentar novamente."},
		"method_not_allowed": {i18n.ES: "Método no permitido para esta ruta.", i18n.EN: "Method not allowed for this path.", i18n.PT: "Método não permitido para este caminho."},
		"request.conflict":   {i18n.ES: "Ya existe un registro igual. Recarga la página para ver el actual.", i18n.EN: "A matching record already exists. Reload the page to see the current one.", i18n.PT: "Já existe um registro igual. Recarregue a página para ver o atual."},
		"invalid_id":         {i18n.ES: "El identificador no es válido.", i18n.EN: "The identifier is not valid.", i18n.PT: "O identificador não é válido."},
	})
}

func init() {
	i18n.Register(i18n.Catalog{
		"wrong_type": {i18n.ES: "El valor no tiene el tipo esperado.", i18n.EN: "The value has the wrong type.", i18n.PT: "O valor não tem o tipo esperado."},
	})
}
