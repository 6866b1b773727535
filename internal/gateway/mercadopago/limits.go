package mercadopago

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/money"
)

// limitsTTL is how long the payment methods' limits are reused: donation forms ask for them on
// every load and submission, and MercadoPago changes them rarely.
const limitsTTL = time.Minute

// AmountLimits reads min_allowed_amount and max_allowed_amount of the account's card payment
// methods (GET /v1/payment_methods) and returns the widest range any card accepts. Answers are
// cached for a minute; errors are not, so the caller's defaults apply only while it fails.
func (c *Client) AmountLimits(ctx context.Context) (gateway.AmountLimits, error) {
	return c.limits.Get(ctx, limitsTTL, c.readAmountLimits)
}

func (c *Client) readAmountLimits(ctx context.Context) (gateway.AmountLimits, error) {
	var methods []struct {
		PaymentTypeID string      `json:"payment_type_id"`
		Status        string      `json:"status"`
		Min           json.Number `json:"min_allowed_amount"`
		Max           json.Number `json:"max_allowed_amount"`
	}
	if err := c.rest.Do(ctx, http.MethodGet, "/v1/payment_methods", nil, nil, &methods); err != nil {
		return gateway.AmountLimits{}, err
	}
	var out gateway.AmountLimits
	found := false
	for _, m := range methods {
		if m.Status != "active" || m.Min == "" || m.Max == "" ||
			(m.PaymentTypeID != "credit_card" && m.PaymentTypeID != "debit_card" && m.PaymentTypeID != "prepaid_card") {
			continue
		}
		lo, err1 := money.ParseWire(m.Min.String(), c.currency)
		hi, err2 := money.ParseWire(m.Max.String(), c.currency)
		if err1 != nil || err2 != nil || hi.Minor < lo.Minor {
			continue
		}
		if !found || lo.Minor < out.Min.Minor {
			out.Min = lo
		}
		if !found || hi.Minor > out.Max.Minor {
			out.Max = hi
		}
		found = true
	}
	if !found {
		return gateway.AmountLimits{}, errors.New("mercadopago: no card payment method states its amount limits")
	}
	return out, nil
}
