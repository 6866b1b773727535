package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections"
	"github.com/aporta/aporta/internal/gateway"
	"github.com/aporta/aporta/internal/gateway/sandbox"
	"github.com/aporta/aporta/internal/money"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// benchCreate measures donation creation end to end on the public form (issue 19): clients POST
// /d/{slug} one-time donations whose card the sandbox gateway approves, each from its own loopback
// address (the per-IP limit sees one donor each); the cards are tokenised before the clock starts, as
// browsers do before they submit. The reference does the least the same donation needs: the gateway
// calls the real path makes to the same sandbox through the same adapter (card brand of the BIN, the
// customer, the saved card, the charge), then the rows the real path leaves in hand-written pgx: in one
// shard transaction a donor, its card, the donation (with its convert-to-monthly secret) and its
// approved charge with the dashboard rollup kept (sharddb.WithRollup), the receipt under the
// organisation's next number; then the thank-you and receipt e-mails in the directory's outbox, each
// under its key. (The bench organisation has no CRM integration, webhook endpoint or commission, so
// the real path writes no rows for them either.) What the real path does beyond it: HTTP and JSON, the
// form's checks and limits, the idempotency lookup, a pending donation written before the charge and
// settled after it, then closed for the first-charge sweep once its e-mails are queued, the e-mails' templates.
func benchCreate(ctx context.Context, cfg *config.Config, t *tenants.Tenants, clients int, d time.Duration, ownAddrs bool) {
	org, slug, publicKey, err := donorCampaign(ctx, cfg, t)
	if err != nil {
		fmt.Println("donation creation: not run:", err)
		return
	}
	scope, err := t.ForOrganization(ctx, org)
	if err != nil {
		fmt.Println("donation creation: not run:", err)
		return
	}
	var campaignID uuid.UUID
	if err := scope.QueryRow(ctx, `SELECT id FROM campaigns WHERE organization_id = $1 AND slug = $2`, org, slug).Scan(&campaignID); err != nil {
		fmt.Println("donation creation: not run:", err)
		return
	}
	store, err := connections.Open(ctx, cfg)
	if err != nil {
		fmt.Println("donation creation: not run:", err)
		return
	}
	gw, _, err := (&connections.Clients{Store: store, Tenants: t, BaseURL: cfg.GatewayURL}).ForScope(ctx, scope, connections.MercadoPago, "ARS")
	if err != nil {
		fmt.Println("donation creation: not run:", err)
		return
	}
	// Enough cards for both sides of the run at a few hundred donations a second.
	tokens := make(chan string, 400*int(d/time.Second)+2*clients)
	tokenise(ctx, cfg, publicKey, cap(tokens), tokens)
	runID := uuid.NewString()[:8]
	var n atomic.Int64
	form := func() error {
		tok, ok := <-tokens
		if !ok {
			return errNoCards
		}
		i := n.Add(1)
		body := formBody(tok, "APRO", 0, fmt.Sprintf("create-%s-%d@example.org", runID, i), fmt.Sprintf("create-%s-%d", runID, i))
		dialer := &net.Dialer{Timeout: 10 * time.Second}
		if ownAddrs {
			dialer.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, byte(100+i>>16), byte(i>>8), byte(i))}
		}
		tr := &http.Transport{DialContext: dialer.DialContext}
		defer tr.CloseIdleConnections()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, cfg.PublicURL+"/d/"+slug, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := (&http.Client{Transport: tr, Timeout: time.Minute}).Do(req)
		if err != nil {
			return err
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			return fmt.Errorf("POST /d/%s: %d %s", slug, res.StatusCode, b)
		}
		return nil
	}
	ref := func() error {
		tok, ok := <-tokens
		if !ok {
			return errNoCards
		}
		i := n.Add(1)
		email := fmt.Sprintf("ref-%s-%d@example.org", runID, i)
		if _, err := gw.PaymentMethod(ctx, "450995"); err != nil {
			return err
		}
		cust, err := gw.EnsureCustomer(ctx, gateway.Customer{Email: email, FirstName: "Ana", LastName: "Bench", IDType: "DNI", IDNumber: "30111222"})
		if err != nil {
			return err
		}
		saved, err := gw.SaveCard(ctx, cust.ID, tok)
		if err != nil {
			return err
		}
		ref := fmt.Sprintf("ref-%s-%d", runID, i)
		pay, err := gw.Charge(ctx, gateway.Charge{IdempotencyKey: ref, ExternalReference: ref, Amount: money.New(150000, "ARS"),
			Description: "Donación", CustomerID: cust.ID, Email: email, CardID: saved.ID, PaymentMethodID: "visa"})
		if err != nil {
			return err
		}
		err = scope.Tx(ctx, func(tx pgx.Tx) error {
			q := sharddb.Store(tx)
			donor, donation, card, txID := uuid.New(), uuid.New(), uuid.New(), uuid.New()
			if _, err := tx.Exec(ctx, `INSERT INTO donors (organization_id, id, email, first_name, last_name, uid_type, uid_number)
				VALUES ($1, $2, $3, 'Ana', 'Bench', 'DNI', '30111222')`, org, donor, email); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO payment_methods (organization_id, id, donor_id, gateway, customer_id, card_id, brand, bin,
				last_four, expiry_month, expiry_year, holder_name, holder_id_type, holder_id_number, donor_is_cardholder)
				VALUES ($1, $2, $3, 'mercadopago', $4, $5, 'visa', '450995', '3704', 11, $6, 'APRO Bench', 'DNI', '30111222', true)`,
				org, card, donor, cust.ID, saved.ID, time.Now().Year()+3); err != nil {
				return err
			}
			err := q.WithRollup(ctx, org, []uuid.UUID{donation}, func() error {
				if _, err := tx.Exec(ctx, `INSERT INTO donations (organization_id, id, campaign_id, donor_id, amount_minor, currency, recurrence,
					status, payment_method_id, idempotency_key, items, convert_token_hash, convert_token_expires_at)
					VALUES ($1, $2, $3, $4, 150000, 'ARS', 0, 'active', $5, $6, '[{"item_name":"Donación","quantity":1,"amount":150000}]',
					sha256(uuid_send($4) || uuid_send(gen_random_uuid())), now() + interval '1 hour')`,
					org, donation, campaignID, donor, card, ref); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `INSERT INTO transactions (organization_id, id, donation_id, amount_minor, currency, status, attempt,
					payment_method_id, gateway_payment_id, charged_at)
					VALUES ($1, $2, $3, 150000, 'ARS', 'approved', 1, $4, $5, now())`, org, txID, donation, card, pay.ID)
				return err
			})
			if err != nil {
				return err
			}
			var number int64
			if err := tx.QueryRow(ctx, `INSERT INTO receipt_counters (organization_id, last_number) VALUES ($1, 1)
				ON CONFLICT (organization_id) DO UPDATE SET last_number = receipt_counters.last_number + 1 RETURNING last_number`, org).
				Scan(&number); err != nil {
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO receipts (organization_id, number, transaction_id, donation_id, donor_id, amount_minor, currency,
				charged_at, campaign_title, donor_name, donor_email, donor_tax_id, org_legal_name)
				VALUES ($1, $2, $3, $4, $5, 150000, 'ARS', now(), 'Benchmark', 'Ana Bench', $6, 'DNI 30111222', 'Fundación Benchmark')`,
				org, number, txID, donation, donor, email)
			return err
		})
		if err != nil {
			return err
		}
		// The thank-you and receipt e-mails, each recorded once per key in the directory's outbox.
		return pgx.BeginFunc(ctx, t.Directory(), func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			for _, kind := range []string{"donation_thanks", "donation_receipt"} {
				b.Queue(`WITH m AS (INSERT INTO outbox_messages (recipient, message_type, subject, body, template_type, adapter)
					VALUES ($1, 'email', 'Gracias', 'Gracias por tu aporte', $2, 'outbox') RETURNING id)
					INSERT INTO workflow_emails (key, outbox_id) SELECT $3, id FROM m`, email, kind, kind+"/"+ref)
			}
			return tx.SendBatch(ctx, b).Close()
		})
	}
	compare("POST /d/{slug}: one-time donation, sandbox approves", "same gateway calls + one pgx transaction, same rows",
		run(form, clients, d), run(ref, clients, d))
}

var errNoCards = fmt.Errorf("out of tokenised cards (raise the pool in benchCreate)")

// tokenise fills out with n card tokens of the sandbox's approving cardholder, 8 at a time, and closes it.
func tokenise(ctx context.Context, cfg *config.Config, publicKey string, n int, out chan<- string) {
	var wg sync.WaitGroup
	var left atomic.Int64
	left.Store(int64(n))
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Timeout: 30 * time.Second}
			for left.Add(-1) >= 0 {
				tok, err := sandbox.CardToken(ctx, hc, cfg.GatewayURL, publicKey, "APRO Bench")
				if err != nil {
					fmt.Println("tokenise:", err)
					return
				}
				out <- tok
			}
		}()
	}
	wg.Wait()
	close(out)
}
