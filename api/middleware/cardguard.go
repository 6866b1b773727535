package middleware

import (
	"bytes"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/card"
	"github.com/aporta/aporta/internal/i18n"
)

// RefuseCardData refuses a request whose JSON body carries a card number or a security code in any
// field (card.Find), before a handler decodes, stores, exports or logs it: cards are tokenised in
// the browser and never reach Aporta. Every field holding one is named, so forms show the error
// under it. Mounted on every group that takes text from donors or operators; the body is read through the
// group's body limit, and a read error is handed on to the handler, which reports it as before.
func RefuseCardData() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.Body == http.NoBody { // a request without a body (a GET, say) has nothing to look at
			c.Next()
			return
		}
		body, err := io.ReadAll(c.Request.Body)
		c.Request.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), failingReader{err}))
		if paths := card.Find(body); len(paths) > 0 {
			e := &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "card.data_refused", Fields: map[string]string{}}
			for _, p := range paths {
				if p != "" {
					e.Fields[p] = "card.number_in_field"
				}
			}
			apierror.Abort(c, e)
			return
		}
		c.Next()
	}
}

// failingReader ends a replayed body with the error reading it ended with (io.EOF when none).
type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) {
	if r.err == nil {
		return 0, io.EOF
	}
	return 0, r.err
}

func init() {
	i18n.Register(i18n.Catalog{
		"card.data_refused": {
			i18n.ES: "Por seguridad no recibimos números de tarjeta ni códigos de seguridad fuera de los campos de la tarjeta: quítalo del campo marcado.",
			i18n.EN: "For security we do not accept card numbers or security codes outside the card fields: remove it from the highlighted field.",
			i18n.PT: "Por segurança não recebemos números de cartão nem códigos de segurança fora dos campos do cartão: remova-o do campo marcado.",
		},
		"card.number_in_field": {
			i18n.ES: "Parece un número de tarjeta: no lo escribas aquí",
			i18n.EN: "This looks like a card number: do not enter it here",
			i18n.PT: "Parece um número de cartão: não o escreva aqui",
		},
	})
}
