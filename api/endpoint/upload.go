package endpoint

import (
	"context"
	"errors"
	"mime/multipart"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
)

// File is an uploaded file, with the form's other values.
type File struct {
	multipart.File
	Name  string
	Size  int64
	Value func(key string) string
}

// Upload describes a multipart upload route.
type Upload struct {
	// Field is the form field that carries the file.
	Field string
	// Status answers a success (200 when zero).
	Status int
	// Invalid is the route's error for a body it cannot read, with status 413 when the body is over
	// the route's limit (the route's UploadLimit answers the same) and 400 otherwise.
	Invalid func(status int) *apierror.Error
}

// HandleUpload is Handle for multipart uploads, whose file is no JSON: it reads u.Field's file,
// runs exec with it and writes the answer. The form's temporary files are removed afterwards.
func HandleUpload[Resp any](u Upload, exec func(ctx context.Context, f File) (*Resp, error)) gin.HandlerFunc {
	status := u.Status
	if status == 0 {
		status = http.StatusOK
	}
	return func(c *gin.Context) {
		err := c.Request.ParseMultipartForm(8 << 20)
		if c.Request.MultipartForm != nil {
			defer c.Request.MultipartForm.RemoveAll()
		}
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			apierror.Abort(c, u.Invalid(http.StatusRequestEntityTooLarge))
			return
		case err != nil:
			apierror.Abort(c, u.Invalid(http.StatusBadRequest))
			return
		}
		f, h, err := c.Request.FormFile(u.Field)
		if err != nil {
			apierror.Abort(c, apierror.Validation(map[string]string{u.Field: "upload.file_required"}))
			return
		}
		defer f.Close()
		resp, err := exec(c.Request.Context(), File{File: f, Name: h.Filename, Size: h.Size, Value: c.Request.FormValue})
		if err != nil {
			apierror.Abort(c, err)
			return
		}
		c.JSON(status, resp)
	}
}

func init() {
	i18n.Register(i18n.Catalog{
		"upload.file_required": {
			i18n.ES: "Selecciona un archivo.",
			i18n.EN: "Choose a file.",
			i18n.PT: "Selecione um arquivo.",
		},
	})
}
