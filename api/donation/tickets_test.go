package donation_test

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/campaign"
)

func ticketsPayload(tok string, quantities ...int) map[string]any {
	p := payload(tok, 0, 1000, email(), uuid.NewString())
	var items []any
	for _, q := range quantities {
		items = append(items, map[string]any{"uuid": "", "amount": 1000, "item_name": "Platea", "quantity": q})
	}
	p["donation"].(map[string]any)["items"] = items
	return p
}

// One order holding several items of the same ticket asks for their sum: it cannot buy more than
// are left, and concurrent orders together never sell more than the ticket's quantity.
func TestOneOrderWithTwoItemsOfOneTicketCannotOversell(t *testing.T) {
	t.Parallel()
	three := 3
	starts := time.Now().Add(30 * 24 * time.Hour)
	f := setup(t, func(in *campaign.Input) {
		in.Type = "tickets"
		in.Amounts = []campaign.Amount{{Amount: "1000"}}
		in.Event = &campaign.Event{Category: "Concierto", Format: "physical", StartsAt: &starts,
			Tickets: []campaign.Ticket{{Name: "Platea", Quantity: &three}}}
	})
	url := f.srv.URL + "/d/" + f.slug
	sold := func() int {
		return f.count(t, `SELECT coalesce(sum((i->>'quantity')::int), 0) FROM donations d CROSS JOIN LATERAL jsonb_array_elements(d.items) i
			WHERE d.organization_id = $1 AND d.status <> 'rejected'`)
	}

	a := post(t, url, ticketsPayload(token(t, f.cfg, "APRO"), 2, 2))
	require.Equal(t, http.StatusConflict, a.Status, a.Body)
	require.Equal(t, "No quedan suficientes entradas «Platea»: quedan 3", a.Message)
	require.Zero(t, sold())

	// Three orders of two seats each (1 + 1) at once for the three seats: exactly one gets them.
	statuses := make([]int, 3)
	var wg sync.WaitGroup
	for i := range statuses {
		tok := token(t, f.cfg, "APRO")
		wg.Go(func() { statuses[i] = post(t, url, ticketsPayload(tok, 1, 1)).Status })
	}
	wg.Wait()
	slices.Sort(statuses)
	require.Equal(t, []int{http.StatusCreated, http.StatusConflict, http.StatusConflict}, statuses)
	require.Equal(t, 2, sold())

	a = post(t, url, ticketsPayload(token(t, f.cfg, "APRO"), 1))
	require.Equal(t, http.StatusCreated, a.Status, a.Body)
	require.Equal(t, 3, sold())
}
