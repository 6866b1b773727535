// Package config reads Aporta's typed configuration from the environment, once, at start-up.
package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Countries are the countries Aporta operates in; each has its own shard.
var Countries = []string{"AR", "BR", "CL", "CO", "MX", "PE", "UY"}

// Config is everything the processes need. Every field comes from an APORTA_* variable.
type Config struct {
	Env          string // dev, test or production
	HTTPAddr     string
	PublicURL    string
	DirectoryDSN string
	ShardDSNs    map[string]string // country → DSN (a Citus coordinator in production)
	TemporalAddr string
	TemporalNS   string
	KratosPublic string
	KratosAdmin  string
	KetoRead     string
	KetoWrite    string
	GatewayToken string // the platform's gateway access token (any value for the sandbox)
	GatewayURL   string
	StaffInbox   string // where onboarding review reminders go
	// GatewayCurrency is the platform account's currency (its MercadoPago site's): organisations'
	// subscriptions are charged through it (APORTA_GATEWAY_CURRENCY, ARS by default).
	GatewayCurrency string
	// GatewayPublicURL and GatewayPublicKey are what donors' browsers use to tokenise cards at the
	// gateway directly (MercadoPago's public key); the card never passes through Aporta.
	GatewayPublicURL string
	GatewayPublicKey string
	// Organisations connect their own MercadoPago accounts through the platform's OAuth application
	// (MPClientID/MPClientSecret) on MPAuthURL, the authorization page; CentralPos accounts through
	// its API at CentralPosURL with the platform's partner key. MercadoPago signs payment notifications
	// with the application's MPWebhookSecret. Dev and test default to the sandbox.
	MPClientID           string
	MPClientSecret       string
	MPWebhookSecret      string
	MPAuthURL            string
	CentralPosURL        string
	CentralPosPartnerKey string
	CentralPosPublicURL  string // CentralPos's API as donors' browsers reach it (its tokeniser)
	BlobURL              string
	Secret               []byte // signs CSRF tokens and download links
	MaxBodyBytes         int64
	ShutdownGrace        time.Duration
	LogLevel             string

	// Integrated payments charge through the platform's dLocal account (DLocalLogin, DLocalTransKey
	// and DLocalSecret sign its requests) at DLocalURL; DLocalPublicURL is its tokeniser as donors'
	// browsers reach it. Dev and test default to the sandbox.
	DLocalURL, DLocalPublicURL, DLocalLogin, DLocalTransKey, DLocalSecret string
	// CVaultPublicURL is the card vault's tokeniser as donors' browsers reach it, CVaultKey the
	// platform's public key there: a card the global processor may retry is tokenised there too.
	CVaultPublicURL, CVaultKey string
	// BankDebitURL and BankDebitToken reach the bank-debit network that collects subscriptions paid
	// by CBU direct debit (internal/bankdebit); MEPURL answers the dollar MEP quote (internal/mep)
	// and MEPSource names it where the rate is shown.
	BankDebitURL, BankDebitToken, MEPURL, MEPSource string

	// TrustedProxies are the CIDRs of the reverse proxies in front of `serve`: only from them is
	// X-Forwarded-For believed. None by default, so the client IP is the socket's address.
	TrustedProxies []string

	// WebhookAllowedNets are networks organisations' webhook endpoints may reach although they are
	// not public (internal/webhook.Guard): in dev and test the sandbox receiver on loopback; none, and
	// refused, in production, where endpoints must be public https addresses.
	WebhookAllowedNets []netip.Prefix

	// SecretsURL is the gocloud.dev/secrets key that wraps organisations' gateway tokens (a KMS in
	// production); empty: a key derived from Secret. SecretsPreviousURLs are keys values may still
	// be sealed by during a rotation (internal/secrets), space-separated in the environment.
	SecretsURL          string
	SecretsPreviousURLs []string

	// Courier: Kratos posts its messages to /internal/courier/messages with basic auth
	// kratos:CourierSecret; the outbox keeps them and hands them to the adapters below.
	CourierSecret string
	MailAdapter   string // outbox (dev/test: keep only) or smtp
	SMTPAddr      string // host:port
	SMTPUser      string
	SMTPPassword  string
	MailFrom      string
	SMSAdapter    string // outbox (dev/test: keep only) or http
	SMSURL        string // HTTP SMS provider endpoint (POST JSON {to, body})
	SMSToken      string // bearer token for the SMS provider

	// SMTPTimeout bounds the whole SMTP exchange, dial included; OutboxRetention is how long the
	// outbox keeps messages (the outbox-sweep schedule purges older ones).
	SMTPTimeout     time.Duration
	OutboxRetention time.Duration

	// WorkerHealthAddr is where `aporta worker` answers /healthz and /readyz (its probes).
	WorkerHealthAddr string

	DB DBConfig
}

// DBConfig bounds every PostgreSQL pool (the directory and each shard), so a slow query, an
// abandoned transaction or a burst of requests cannot hold every connection.
type DBConfig struct {
	MaxConns         int32         // per pool
	StatementTimeout time.Duration // server-side cap on one statement
	IdleInTxTimeout  time.Duration // a transaction left idle this long is ended by the server
	ConnectTimeout   time.Duration
}

// FromEnv reads and validates the configuration.
func FromEnv() (*Config, error) {
	c := &Config{
		Env:                  os.Getenv("APORTA_ENV"), // required: no default, so production never starts as dev
		HTTPAddr:             get("APORTA_HTTP_ADDR", ":8080"),
		WorkerHealthAddr:     get("APORTA_WORKER_HEALTH_ADDR", ":8081"),
		PublicURL:            strings.TrimRight(get("APORTA_PUBLIC_URL", "http://localhost:8080"), "/"),
		DirectoryDSN:         os.Getenv("APORTA_DIRECTORY_DSN"),
		TemporalAddr:         get("APORTA_TEMPORAL_ADDR", "127.0.0.1:7233"),
		TemporalNS:           get("APORTA_TEMPORAL_NAMESPACE", "default"),
		KratosPublic:         strings.TrimRight(get("APORTA_KRATOS_PUBLIC_URL", "http://127.0.0.1:4433"), "/"),
		KratosAdmin:          strings.TrimRight(get("APORTA_KRATOS_ADMIN_URL", "http://127.0.0.1:4434"), "/"),
		KetoRead:             strings.TrimRight(get("APORTA_KETO_READ_URL", "http://127.0.0.1:4466"), "/"),
		KetoWrite:            strings.TrimRight(get("APORTA_KETO_WRITE_URL", "http://127.0.0.1:4467"), "/"),
		GatewayURL:           strings.TrimRight(get("APORTA_GATEWAY_URL", "http://127.0.0.1:8090"), "/"),
		GatewayToken:         os.Getenv("APORTA_GATEWAY_TOKEN"),
		GatewayCurrency:      get("APORTA_GATEWAY_CURRENCY", "ARS"),
		StaffInbox:           get("APORTA_STAFF_INBOX", "verificaciones@aporta.test"),
		GatewayPublicURL:     strings.TrimRight(os.Getenv("APORTA_GATEWAY_PUBLIC_URL"), "/"),
		GatewayPublicKey:     get("APORTA_GATEWAY_PUBLIC_KEY", "TEST-aporta-sandbox-public-key"),
		MPClientID:           os.Getenv("APORTA_MP_CLIENT_ID"),
		MPClientSecret:       os.Getenv("APORTA_MP_CLIENT_SECRET"),
		MPWebhookSecret:      os.Getenv("APORTA_MP_WEBHOOK_SECRET"),
		MPAuthURL:            strings.TrimRight(os.Getenv("APORTA_MP_AUTH_URL"), "/"),
		CentralPosURL:        strings.TrimRight(os.Getenv("APORTA_CENTRALPOS_URL"), "/"),
		CentralPosPartnerKey: os.Getenv("APORTA_CENTRALPOS_PARTNER_KEY"),
		CentralPosPublicURL:  strings.TrimRight(os.Getenv("APORTA_CENTRALPOS_PUBLIC_URL"), "/"),
		DLocalURL:            strings.TrimRight(os.Getenv("APORTA_DLOCAL_URL"), "/"),
		DLocalPublicURL:      strings.TrimRight(os.Getenv("APORTA_DLOCAL_PUBLIC_URL"), "/"),
		DLocalLogin:          os.Getenv("APORTA_DLOCAL_LOGIN"),
		DLocalTransKey:       os.Getenv("APORTA_DLOCAL_TRANS_KEY"),
		DLocalSecret:         os.Getenv("APORTA_DLOCAL_SECRET"),
		CVaultPublicURL:      strings.TrimRight(os.Getenv("APORTA_CVAULT_PUBLIC_URL"), "/"),
		CVaultKey:            os.Getenv("APORTA_CVAULT_KEY"),
		BankDebitURL:         strings.TrimRight(os.Getenv("APORTA_BANK_DEBIT_URL"), "/"),
		BankDebitToken:       os.Getenv("APORTA_BANK_DEBIT_TOKEN"),
		MEPURL:               os.Getenv("APORTA_MEP_URL"),
		MEPSource:            os.Getenv("APORTA_MEP_SOURCE"),
		BlobURL:              os.Getenv("APORTA_BLOB_URL"),
		Secret:               []byte(os.Getenv("APORTA_SECRET")),
		LogLevel:             get("APORTA_LOG_LEVEL", "info"),
		ShutdownGrace:        15 * time.Second,
		CourierSecret:        os.Getenv("APORTA_COURIER_SECRET"),
		MailAdapter:          get("APORTA_MAIL_ADAPTER", "outbox"),
		SMTPAddr:             os.Getenv("APORTA_SMTP_ADDR"),
		SMTPUser:             os.Getenv("APORTA_SMTP_USER"),
		SMTPPassword:         os.Getenv("APORTA_SMTP_PASSWORD"),
		MailFrom:             get("APORTA_MAIL_FROM", "Aporta <no-reply@aporta.test>"),
		SMSAdapter:           get("APORTA_SMS_ADAPTER", "outbox"),
		SMSURL:               os.Getenv("APORTA_SMS_URL"),
		SMSToken:             os.Getenv("APORTA_SMS_TOKEN"),
	}
	c.SecretsURL, c.SecretsPreviousURLs = os.Getenv("APORTA_SECRETS_URL"), strings.Fields(os.Getenv("APORTA_SECRETS_PREVIOUS_URLS"))
	var err error
	if c.MaxBodyBytes, err = strconv.ParseInt(get("APORTA_MAX_BODY_BYTES", "1048576"), 10, 64); err != nil {
		return nil, fmt.Errorf("APORTA_MAX_BODY_BYTES: %w", err)
	}
	if c.SMTPTimeout, err = time.ParseDuration(get("APORTA_SMTP_TIMEOUT", "15s")); err != nil {
		return nil, fmt.Errorf("APORTA_SMTP_TIMEOUT: %w", err)
	}
	if c.OutboxRetention, err = time.ParseDuration(get("APORTA_OUTBOX_RETENTION", "720h")); err != nil {
		return nil, fmt.Errorf("APORTA_OUTBOX_RETENTION: %w", err)
	}
	if c.ShardDSNs, err = parseShards(os.Getenv("APORTA_SHARD_DSNS")); err != nil {
		return nil, err
	}
	if c.DB, err = dbFromEnv(); err != nil {
		return nil, err
	}
	if c.TrustedProxies, err = parseCIDRs(os.Getenv("APORTA_TRUSTED_PROXIES")); err != nil {
		return nil, err
	}
	if c.WebhookAllowedNets, err = parsePrefixes("APORTA_WEBHOOK_ALLOWED_NETS", os.Getenv("APORTA_WEBHOOK_ALLOWED_NETS")); err != nil {
		return nil, err
	}
	return c, c.validate()
}

func dbFromEnv() (DBConfig, error) {
	var db DBConfig
	n, err := strconv.ParseInt(get("APORTA_DB_MAX_CONNS", "16"), 10, 32)
	if err != nil || n < 1 {
		return db, fmt.Errorf("APORTA_DB_MAX_CONNS must be a positive number, got %q", os.Getenv("APORTA_DB_MAX_CONNS"))
	}
	db.MaxConns = int32(n)
	for _, d := range []struct {
		key, def string
		to       *time.Duration
	}{
		{"APORTA_DB_STATEMENT_TIMEOUT", "30s", &db.StatementTimeout},
		{"APORTA_DB_IDLE_IN_TX_TIMEOUT", "60s", &db.IdleInTxTimeout},
		{"APORTA_DB_CONNECT_TIMEOUT", "5s", &db.ConnectTimeout},
	} {
		v, err := time.ParseDuration(get(d.key, d.def))
		if err != nil || v <= 0 {
			return db, fmt.Errorf("%s must be a positive duration such as %s", d.key, d.def)
		}
		*d.to = v
	}
	return db, nil
}

// DevOnly refuses, in production, a command that writes demo or benchmark data.
func (c *Config) DevOnly(command string) error {
	if !c.IsDev() {
		return fmt.Errorf("%s runs only with APORTA_ENV=dev or test, not %s", command, c.Env)
	}
	return nil
}

// IsDev reports whether dev-only tools (the mailbox, the outbox API) may be mounted.
func (c *Config) IsDev() bool { return c.Env == "dev" || c.Env == "test" }

func (c *Config) validate() error {
	var errs []error
	switch c.Env {
	case "dev", "test", "production":
	case "":
		errs = append(errs, errors.New("APORTA_ENV is required: dev, test or production"))
	default:
		errs = append(errs, fmt.Errorf("APORTA_ENV must be dev, test or production, got %q", c.Env))
	}
	if c.DirectoryDSN == "" {
		errs = append(errs, errors.New("APORTA_DIRECTORY_DSN is required"))
	}
	for _, country := range Countries {
		if c.ShardDSNs[country] == "" {
			errs = append(errs, fmt.Errorf("APORTA_SHARD_DSNS has no DSN for %s", country))
		}
	}
	if len(c.Secret) < 32 {
		errs = append(errs, errors.New("APORTA_SECRET must be at least 32 bytes"))
	}
	if _, err := url.Parse(c.PublicURL); err != nil {
		errs = append(errs, fmt.Errorf("APORTA_PUBLIC_URL: %w", err))
	}
	if c.MaxBodyBytes <= 0 {
		errs = append(errs, errors.New("APORTA_MAX_BODY_BYTES must be positive"))
	}
	// The outbox retries a message 2 minutes after an attempt began (outbox.RetryAfter).
	if c.SMTPTimeout <= 0 || c.SMTPTimeout > time.Minute {
		errs = append(errs, errors.New("APORTA_SMTP_TIMEOUT must be positive and at most 1m"))
	}
	if c.OutboxRetention < 24*time.Hour {
		errs = append(errs, errors.New("APORTA_OUTBOX_RETENTION must be at least 24h"))
	}
	if c.GatewayToken == "" {
		if c.Env == "production" {
			errs = append(errs, errors.New("APORTA_GATEWAY_TOKEN is required in production"))
		}
		c.GatewayToken = "TEST-aporta-sandbox" // the sandbox accepts any bearer token
	}
	if c.GatewayPublicURL == "" {
		c.GatewayPublicURL = c.GatewayURL
	}
	errs = append(errs, c.defaultConnections()...)
	if c.Env == "production" {
		errs = append(errs, c.validateProduction()...)
	}
	return errors.Join(errs...)
}

// defaultConnections points the organisations' gateway connections at the sandbox in dev and
// test (the values deploy/stack.sh gives bin/sandboxgw); production must name the real ones.
func (c *Config) defaultConnections() []error {
	var errs []error
	if c.MPAuthURL == "" {
		c.MPAuthURL = c.GatewayPublicURL + "/authorization" // browsers open it
		if c.Env == "production" {
			c.MPAuthURL = "https://auth.mercadopago.com/authorization"
		}
	}
	if c.CentralPosURL == "" {
		if c.Env == "production" {
			errs = append(errs, errors.New("APORTA_CENTRALPOS_URL is required in production"))
		}
		c.CentralPosURL = c.GatewayURL + "/centralpos/v1"
	}
	if c.CentralPosPublicURL == "" {
		if c.Env == "production" {
			errs = append(errs, errors.New("APORTA_CENTRALPOS_PUBLIC_URL is required in production"))
		}
		c.CentralPosPublicURL = c.GatewayPublicURL + "/centralpos/v1"
	}
	for _, v := range []struct {
		key      string
		value    *string
		fallback string
	}{
		{"APORTA_DLOCAL_URL", &c.DLocalURL, c.GatewayURL + "/dlocal"},
		{"APORTA_DLOCAL_PUBLIC_URL", &c.DLocalPublicURL, c.GatewayPublicURL + "/dlocal"},
		{"APORTA_DLOCAL_LOGIN", &c.DLocalLogin, "aporta-platform-login"},
		{"APORTA_DLOCAL_TRANS_KEY", &c.DLocalTransKey, "aporta-platform-trans-key"},
		{"APORTA_DLOCAL_SECRET", &c.DLocalSecret, "aporta-platform-secret-key"},
		{"APORTA_CVAULT_PUBLIC_URL", &c.CVaultPublicURL, c.GatewayPublicURL},
		{"APORTA_CVAULT_KEY", &c.CVaultKey, "TEST-aporta-vault-key"},
		{"APORTA_MP_CLIENT_ID", &c.MPClientID, "8808000000000001"},
		{"APORTA_MP_CLIENT_SECRET", &c.MPClientSecret, "TEST-aporta-client-secret"},
		{"APORTA_MP_WEBHOOK_SECRET", &c.MPWebhookSecret, "TEST-aporta-webhook-secret"},
		{"APORTA_CENTRALPOS_PARTNER_KEY", &c.CentralPosPartnerKey, "TEST-aporta-centralpos-partner"},
		{"APORTA_BANK_DEBIT_URL", &c.BankDebitURL, c.GatewayURL + "/bankdebit/v1"},
		{"APORTA_BANK_DEBIT_TOKEN", &c.BankDebitToken, c.GatewayToken},
		{"APORTA_MEP_URL", &c.MEPURL, c.GatewayURL + "/mep/v1/dolares/bolsa"},
		{"APORTA_MEP_SOURCE", &c.MEPSource, "Sandbox MEP"},
	} {
		if *v.value != "" {
			continue
		}
		if c.Env == "production" {
			errs = append(errs, fmt.Errorf("%s is required in production", v.key))
		}
		*v.value = v.fallback
	}
	return errs
}

// validateProduction refuses the dev and sandbox stand-ins, so a production process cannot start
// half-configured: plain-http links, the sandbox gateway, messages kept in the outbox, a weak secret.
func (c *Config) validateProduction() []error {
	var errs []error
	for _, u := range []struct{ key, value string }{
		{"APORTA_PUBLIC_URL", c.PublicURL},
		{"APORTA_GATEWAY_URL", c.GatewayURL}, // the default is the local sandbox
		{"APORTA_GATEWAY_PUBLIC_URL", c.GatewayPublicURL},
		{"APORTA_MP_AUTH_URL", c.MPAuthURL},
		{"APORTA_CENTRALPOS_URL", c.CentralPosURL},
		{"APORTA_CENTRALPOS_PUBLIC_URL", c.CentralPosPublicURL},
	} {
		if p, err := url.Parse(u.value); err != nil || p.Scheme != "https" || p.Host == "" {
			errs = append(errs, fmt.Errorf("%s must be an https URL in production", u.key))
		}
	}
	// MercadoPago's test credentials start with TEST-, as the sandbox's defaults do.
	if strings.HasPrefix(c.GatewayToken, "TEST-") {
		errs = append(errs, errors.New("APORTA_GATEWAY_TOKEN must be the gateway's production access token"))
	}
	if strings.HasPrefix(c.GatewayPublicKey, "TEST-") {
		errs = append(errs, errors.New("APORTA_GATEWAY_PUBLIC_KEY must be the gateway's production public key"))
	}
	if c.MailAdapter == "outbox" {
		errs = append(errs, errors.New("APORTA_MAIL_ADAPTER must be a real adapter (smtp) in production"))
	}
	if c.SMSAdapter == "outbox" {
		errs = append(errs, errors.New("APORTA_SMS_ADAPTER must be a real adapter (http) in production"))
	}
	if len(c.WebhookAllowedNets) > 0 {
		errs = append(errs, errors.New("APORTA_WEBHOOK_ALLOWED_NETS must be empty in production: webhooks reach only public addresses"))
	}
	if weakSecret(c.Secret) {
		errs = append(errs, errors.New("APORTA_SECRET looks like a placeholder: use at least 32 random bytes"))
	}
	if len(c.CourierSecret) < 16 || c.CourierSecret == string(c.Secret) {
		errs = append(errs, errors.New("APORTA_COURIER_SECRET must be at least 16 bytes and differ from APORTA_SECRET"))
	}
	return errs
}

// weakSecret reports a secret with little variety (a repeated word, "changeme…", a counting
// pattern): 32 random bytes, or 32 characters of base64, use far more than 20 distinct values.
func weakSecret(s []byte) bool {
	seen := map[byte]bool{}
	for _, b := range s {
		seen[b] = true
	}
	return len(seen) < 20
}

// parseShards reads "AR=postgres://…,BR=postgres://…". A DSN containing a comma is not supported;
// none of ours needs one.
func parseShards(s string) (map[string]string, error) {
	m := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		country, dsn, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("APORTA_SHARD_DSNS: %q is not COUNTRY=DSN", part)
		}
		country = strings.ToUpper(strings.TrimSpace(country))
		if !IsCountry(country) {
			return nil, fmt.Errorf("APORTA_SHARD_DSNS: unknown country %q", country)
		}
		m[country] = strings.TrimSpace(dsn)
	}
	return m, nil
}

// parseCIDRs reads "10.0.0.0/8, 192.168.1.10/32".
func parseCIDRs(s string) ([]string, error) {
	ps, err := parsePrefixes("APORTA_TRUSTED_PROXIES", s)
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out, err
}

// IsCountry reports whether c is one of the operating countries.
func IsCountry(c string) bool {
	i := sort.SearchStrings(Countries, c)
	return i < len(Countries) && Countries[i] == c
}

func get(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// parsePrefixes reads the CIDRs s of the variable key ("127.0.0.1/32, ::1/128").
func parsePrefixes(key, s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a CIDR", key, part)
		}
		out = append(out, p)
	}
	return out, nil
}
