package mep_test

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/gateway/sandbox/sandboxtest"
	"github.com/aporta/aporta/internal/mep"
	"github.com/aporta/aporta/internal/money"
)

// The note's maths: the USD price times the rate, in exact integers, rounded half up to the
// centavo; only a USD price and an ARS rate convert.
func TestConvert(t *testing.T) {
	ars := func(minor int64) money.Amount { return money.New(minor, "ARS") }
	usd := func(minor int64) money.Amount { return money.New(minor, "USD") }
	for _, c := range []struct {
		name      string
		usd, rate money.Amount
		want      int64
	}{
		{"Professional yearly at 1445.50", usd(149000), ars(144550), 215379500}, // 1490 × 1445.50 = 2,153,795.00
		{"a cent at 1445.50 is 14.455: rounds up", usd(1), ars(144550), 1446},
		{"a cent at 1445.49 is 14.4549: rounds down", usd(1), ars(144549), 1445},
		{"exactly half a centavo rounds up", usd(1), ars(50), 1},
		{"under half a centavo rounds down", usd(1), ars(49), 0},
		{"free is free", usd(0), ars(144550), 0},
	} {
		got, err := mep.Convert(c.usd, c.rate)
		require.NoError(t, err, c.name)
		require.Equal(t, ars(c.want), got, c.name)
	}
	got, _ := mep.Convert(usd(149000), ars(144550))
	require.Equal(t, "$ 2.153.795,00", got.Format(), "the note shows pesos as the pages write them")

	for _, bad := range [][2]money.Amount{{ars(100), ars(144550)}, {usd(100), usd(100)}, {usd(100), ars(0)}, {usd(-1), ars(1)}} {
		_, err := mep.Convert(bad[0], bad[1])
		require.ErrorIs(t, err, mep.ErrCurrency)
	}
	_, err := mep.Convert(usd(1<<62), ars(1<<40))
	require.ErrorIs(t, err, money.ErrRange)
}

// The HTTP provider reads dolarapi.com's shape, as the sandbox serves it: the selling price, its
// source's name and the day in Argentina.
func TestHTTPProviderAgainstTheSandbox(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 30, 0, 0, time.UTC) // still the 24th in Buenos Aires
	srv := sandboxtest.Serve(t, sandbox.Options{Now: func() time.Time { return at }})
	p := mep.HTTP{URL: srv.URL + "/mep/v1/dolares/bolsa", Name: "Sandbox MEP"}

	q, err := p.Quote(context.Background())
	require.NoError(t, err)
	require.Equal(t, mep.Quote{Rate: money.New(144550, "ARS"), Source: "Sandbox MEP", AsOf: time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)}, q)

	res, err := http.Post(srv.URL+"/__sandbox/mep", "application/json", bytes.NewBufferString(`{"compra": 1400, "venta": 1460.25}`))
	require.NoError(t, err)
	res.Body.Close()
	q, err = p.Quote(context.Background())
	require.NoError(t, err)
	require.Equal(t, int64(146025), q.Rate.Minor)

	_, err = mep.HTTP{URL: srv.URL + "/nowhere", Name: "x"}.Quote(context.Background())
	require.Error(t, err, "a 404 is no quote")
}
