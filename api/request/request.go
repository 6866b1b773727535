// Package request decodes request bodies into typed values, turning every way a body can be wrong
// (wrong content type, malformed JSON, wrong types, unknown fields, too large) into an apierror.
package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
)

// JSON decodes the body into v. Unknown fields are refused so a typo never passes silently.
func JSON(c *gin.Context, v any) error {
	mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if mt != "application/json" {
		return apierror.New(http.StatusUnsupportedMediaType, "unsupported_media")
	}
	dec := json.NewDecoder(c.Request.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apierror.BadRequest("malformed_json")
	}
	return nil
}

// Body reads the whole request body, within the group's body limit, and puts it back for the
// handler: for middleware that must see the body first (idempotency hashes, the card guard).
func Body(c *gin.Context) ([]byte, error) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return nil, decodeError(err)
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

func decodeError(err error) error {
	var tooLarge *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		return apierror.New(http.StatusRequestEntityTooLarge, "body_too_large", HumanBytes(tooLarge.Limit))
	case errors.As(err, &typeErr):
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed",
			Fields: map[string]string{typeErr.Field: "wrong_type"}, Err: err}
	default:
		return &apierror.Error{Status: http.StatusBadRequest, Code: "malformed_json", Err: err}
	}
}

// HumanBytes renders a byte limit for messages ("1 MB", "50 MB").
func HumanBytes(n int64) string {
	const mb = 1 << 20
	if n >= mb && n%mb == 0 {
		return fmt.Sprintf("%d MB", n/mb)
	}
	if n >= 1024 {
		return fmt.Sprintf("%d KB", n/1024)
	}
	return fmt.Sprintf("%d B", n)
}
