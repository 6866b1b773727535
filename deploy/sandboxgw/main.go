// Command sandboxgw serves the sandbox payment gateway for the dev stack:
//
//	go run ./deploy/sandboxgw -addr 127.0.0.1:8090 -state .data/sandboxgw.json
//
// Point the MercadoPago adapter's base URL (and the card vault's, and CentralPos's) at it. The
// platform account answers to -platform-token and -platform-public-key; organisations' accounts
// connect by OAuth with the -client-id/-client-secret application. See package
// internal/gateway/sandbox for test cards and the /__sandbox admin endpoints.
package main

import (
	"flag"
	"log/slog"
	"os"

	"github.com/aporta/aporta/deploy/sandboxserve"
	"github.com/aporta/aporta/internal/gateway/sandbox"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	statePath := flag.String("state", "", "JSON file keeping the sandbox state across restarts (memory only when empty)")
	var opts sandbox.Options
	flag.StringVar(&opts.Currency, "currency", "ARS", "currency of the platform account")
	flag.StringVar(&opts.PlatformToken, "platform-token", sandbox.DefaultPlatformToken, "the platform account's access token (APORTA_GATEWAY_TOKEN)")
	flag.StringVar(&opts.PlatformPublicKey, "platform-public-key", sandbox.DefaultPlatformPublicKey, "the platform account's public key (APORTA_GATEWAY_PUBLIC_KEY)")
	flag.StringVar(&opts.ClientID, "client-id", sandbox.DefaultClientID, "the OAuth application's client id (APORTA_MP_CLIENT_ID)")
	flag.StringVar(&opts.ClientSecret, "client-secret", sandbox.DefaultClientSecret, "the OAuth application's client secret (APORTA_MP_CLIENT_SECRET)")
	flag.StringVar(&opts.CentralPosPartnerKey, "centralpos-partner-key", sandbox.DefaultPartnerKey, "the platform's CentralPos partner key (APORTA_CENTRALPOS_PARTNER_KEY)")
	flag.StringVar(&opts.WebhookSecret, "webhook-secret", sandbox.DefaultWebhookSecret, "the secret MercadoPago notifications are signed with (APORTA_MP_WEBHOOK_SECRET)")
	flag.Parse()

	opts.StatePath = *statePath
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*addr, opts); err != nil {
		opts.Logger.Error("sandboxgw stopped", "err", err)
		os.Exit(1)
	}
}

func run(addr string, opts sandbox.Options) error {
	gw, err := sandbox.New(opts)
	if err != nil {
		return err
	}
	return sandboxserve.Run("sandboxgw", addr, gw, opts.Logger, "state", opts.StatePath, "currency", opts.Currency)
}
