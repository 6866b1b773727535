package config

import (
	"strings"
	"testing"
	"time"
)

// productionEnv is a complete production configuration; each test breaks one rule.
func productionEnv(t *testing.T) {
	shards := []string{}
	for _, c := range Countries {
		shards = append(shards, c+"=postgres://db/"+c)
	}
	for k, v := range map[string]string{
		"APORTA_ENV":                    "production",
		"APORTA_PUBLIC_URL":             "https://aporta.example",
		"APORTA_DIRECTORY_DSN":          "postgres://db/directory",
		"APORTA_SHARD_DSNS":             strings.Join(shards, ","),
		"APORTA_SECRET":                 "kQ7vN2xR9pL4mW8sT1yB6cF3hJ5dG0aZ",
		"APORTA_COURIER_SECRET":         "uE4iO7qA2sD9fG1h",
		"APORTA_GATEWAY_URL":            "https://api.mercadopago.com",
		"APORTA_GATEWAY_PUBLIC_URL":     "https://sdk.mercadopago.com",
		"APORTA_GATEWAY_TOKEN":          "APP_USR-1234",
		"APORTA_GATEWAY_PUBLIC_KEY":     "APP_USR-public",
		"APORTA_MAIL_ADAPTER":           "smtp",
		"APORTA_SMS_ADAPTER":            "http",
		"APORTA_MP_CLIENT_ID":           "5432109876543210",
		"APORTA_MP_CLIENT_SECRET":       "mKq2Xw7",
		"APORTA_CENTRALPOS_URL":         "https://api.centralpos.example/v1",
		"APORTA_CENTRALPOS_PARTNER_KEY": "ptn_live_1",
		"APORTA_CENTRALPOS_PUBLIC_URL":  "https://js.centralpos.example/v1",
		"APORTA_DLOCAL_URL":             "https://api.dlocal.com",
		"APORTA_DLOCAL_PUBLIC_URL":      "https://ppm.dlocal.com",
		"APORTA_DLOCAL_LOGIN":           "live-login",
		"APORTA_DLOCAL_TRANS_KEY":       "live-trans-key",
		"APORTA_DLOCAL_SECRET":          "live-secret",
		"APORTA_MP_WEBHOOK_SECRET":      "live-webhook-secret",
		"APORTA_CVAULT_PUBLIC_URL":      "https://vault.cvault.example",
		"APORTA_CVAULT_KEY":             "live-vault-key",
		"APORTA_BANK_DEBIT_URL":         "https://debin.bank.example/v1",
		"APORTA_BANK_DEBIT_TOKEN":       "live-debit-token",
		"APORTA_MEP_URL":                "https://dolarapi.com/v1/dolares/bolsa",
		"APORTA_MEP_SOURCE":             "DolarApi (dólar bolsa)",
		"APORTA_WEBHOOK_ALLOWED_NETS":   "", // the test stack's loopback allowance must not leak in
	} {
		t.Setenv(k, v)
	}
}

func TestProductionConfigStarts(t *testing.T) {
	productionEnv(t)
	c, err := FromEnv()
	if err != nil {
		t.Fatalf("a complete production configuration is refused: %v", err)
	}
	if c.IsDev() || c.DevOnly("aporta seed") == nil {
		t.Fatal("production counts as dev")
	}
}

// Each unsafe production setting is refused with the variable's name, so the process never starts.
func TestProductionRefusesUnsafeDefaults(t *testing.T) {
	for _, tc := range []struct {
		name, key, value, want string
	}{
		{"no environment", "APORTA_ENV", "", "APORTA_ENV is required"},
		{"plain http public URL", "APORTA_PUBLIC_URL", "http://aporta.example", "APORTA_PUBLIC_URL must be an https URL"},
		{"default public URL", "APORTA_PUBLIC_URL", "", "APORTA_PUBLIC_URL must be an https URL"},
		{"sandbox gateway URL", "APORTA_GATEWAY_URL", "", "APORTA_GATEWAY_URL must be an https URL"},
		{"plain http tokeniser", "APORTA_GATEWAY_PUBLIC_URL", "http://127.0.0.1:8090", "APORTA_GATEWAY_PUBLIC_URL must be an https URL"},
		{"no gateway token", "APORTA_GATEWAY_TOKEN", "", "APORTA_GATEWAY_TOKEN is required"},
		{"test gateway token", "APORTA_GATEWAY_TOKEN", "TEST-123", "APORTA_GATEWAY_TOKEN must be the gateway's production"},
		{"sandbox public key", "APORTA_GATEWAY_PUBLIC_KEY", "", "APORTA_GATEWAY_PUBLIC_KEY must be"},
		{"no OAuth client", "APORTA_MP_CLIENT_SECRET", "", "APORTA_MP_CLIENT_SECRET is required"},
		{"no CentralPos URL", "APORTA_CENTRALPOS_URL", "", "APORTA_CENTRALPOS_URL is required"},
		{"plain http CentralPos", "APORTA_CENTRALPOS_URL", "http://127.0.0.1:8090/centralpos/v1", "APORTA_CENTRALPOS_URL must be an https URL"},
		{"no CentralPos tokeniser", "APORTA_CENTRALPOS_PUBLIC_URL", "", "APORTA_CENTRALPOS_PUBLIC_URL is required"},
		{"no dLocal secret", "APORTA_DLOCAL_SECRET", "", "APORTA_DLOCAL_SECRET is required"},
		{"mail kept in the outbox", "APORTA_MAIL_ADAPTER", "", "APORTA_MAIL_ADAPTER must be a real adapter"},
		{"SMS kept in the outbox", "APORTA_SMS_ADAPTER", "outbox", "APORTA_SMS_ADAPTER must be a real adapter"},
		{"placeholder secret", "APORTA_SECRET", strings.Repeat("changeme", 4), "APORTA_SECRET looks like a placeholder"},
		{"short secret", "APORTA_SECRET", "kQ7vN2xR9pL4mW8sT1yB6cF3", "APORTA_SECRET must be at least 32 bytes"},
		{"no courier secret", "APORTA_COURIER_SECRET", "", "APORTA_COURIER_SECRET must be"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			productionEnv(t)
			t.Setenv(tc.key, tc.value)
			_, err := FromEnv()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error containing %q, got %v", tc.want, err)
			}
		})
	}
}

// APORTA_ENV has no default: a process started without it must not run as dev.
func TestEnvIsRequired(t *testing.T) {
	productionEnv(t)
	t.Setenv("APORTA_ENV", "")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), "APORTA_ENV is required") {
		t.Fatalf("started without APORTA_ENV: %v", err)
	}
	t.Setenv("APORTA_ENV", "staging")
	if _, err := FromEnv(); err == nil {
		t.Fatal("unknown APORTA_ENV accepted")
	}
}

// Dev and test keep the sandbox defaults.
func TestDevKeepsSandboxDefaults(t *testing.T) {
	productionEnv(t)
	for _, k := range []string{"APORTA_PUBLIC_URL", "APORTA_GATEWAY_URL", "APORTA_GATEWAY_PUBLIC_URL", "APORTA_GATEWAY_TOKEN",
		"APORTA_GATEWAY_PUBLIC_KEY", "APORTA_MAIL_ADAPTER", "APORTA_SMS_ADAPTER", "APORTA_COURIER_SECRET",
		"APORTA_MP_CLIENT_ID", "APORTA_MP_CLIENT_SECRET", "APORTA_CENTRALPOS_URL", "APORTA_CENTRALPOS_PARTNER_KEY", "APORTA_CENTRALPOS_PUBLIC_URL",
		"APORTA_DLOCAL_URL", "APORTA_DLOCAL_PUBLIC_URL", "APORTA_DLOCAL_LOGIN", "APORTA_DLOCAL_TRANS_KEY", "APORTA_DLOCAL_SECRET"} {
		t.Setenv(k, "")
	}
	t.Setenv("APORTA_ENV", "test")
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsDev() || c.DevOnly("aporta seed") != nil || c.MailAdapter != "outbox" {
		t.Fatalf("test environment: %+v", c)
	}
	// Organisations connect to the sandbox's OAuth page (opened by browsers) and CentralPos API.
	if c.MPAuthURL != "http://127.0.0.1:8090/authorization" || c.CentralPosURL != "http://127.0.0.1:8090/centralpos/v1" ||
		c.CentralPosPublicURL != "http://127.0.0.1:8090/centralpos/v1" ||
		c.MPClientID == "" || c.MPClientSecret == "" || c.CentralPosPartnerKey == "" ||
		c.DLocalURL != "http://127.0.0.1:8090/dlocal" || c.DLocalSecret == "" {
		t.Fatalf("test connections: %+v", c)
	}
}

func TestDBDefaultsAndOverrides(t *testing.T) {
	productionEnv(t)
	c, err := FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	want := DBConfig{MaxConns: 16, StatementTimeout: 30 * time.Second, IdleInTxTimeout: time.Minute, ConnectTimeout: 5 * time.Second}
	if c.DB != want {
		t.Fatalf("defaults: %+v", c.DB)
	}
	t.Setenv("APORTA_DB_MAX_CONNS", "40")
	t.Setenv("APORTA_DB_STATEMENT_TIMEOUT", "5s")
	if c, err = FromEnv(); err != nil || c.DB.MaxConns != 40 || c.DB.StatementTimeout != 5*time.Second {
		t.Fatalf("overrides: %+v %v", c, err)
	}
	for k, v := range map[string]string{"APORTA_DB_MAX_CONNS": "0", "APORTA_DB_STATEMENT_TIMEOUT": "forever", "APORTA_DB_CONNECT_TIMEOUT": "-1s"} {
		t.Run(k, func(t *testing.T) {
			t.Setenv(k, v)
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), k) {
				t.Fatalf("%s=%s accepted: %v", k, v, err)
			}
		})
	}
}

// Production refuses networks webhooks could reach although not public; dev and test read them.
func TestWebhookAllowedNets(t *testing.T) {
	productionEnv(t)
	t.Setenv("APORTA_WEBHOOK_ALLOWED_NETS", "127.0.0.1/32")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), "APORTA_WEBHOOK_ALLOWED_NETS must be empty in production") {
		t.Fatalf("production with allowed nets: %v", err)
	}
	t.Setenv("APORTA_ENV", "test")
	c, err := FromEnv()
	if err != nil || len(c.WebhookAllowedNets) != 1 || c.WebhookAllowedNets[0].String() != "127.0.0.1/32" {
		t.Fatalf("test with allowed nets: %v %v", c, err)
	}
	t.Setenv("APORTA_WEBHOOK_ALLOWED_NETS", "localhost")
	if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), `APORTA_WEBHOOK_ALLOWED_NETS: "localhost" is not a CIDR`) {
		t.Fatalf("not a CIDR: %v", err)
	}
}
