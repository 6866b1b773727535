package endpoint

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"
)

// SendPDF answers a generated PDF as a download named name.pdf: never sniffed as another type, never
// kept by a shared cache (receipts and invoices carry tax ids).
func SendPDF(c *gin.Context, name string, pdf []byte) {
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.pdf"`, name))
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("Cache-Control", "private, no-store")
	c.Data(http.StatusOK, "application/pdf", pdf)
}
