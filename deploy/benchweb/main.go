// Command benchweb reports the public donation form's weight and Lighthouse scores (issue 4, "The
// public donation form"): the gzipped size of every JS chunk donate.html loads (its entry script,
// its modulepreloads and their static imports, read from the built web/dist) beside the manage
// app's initial JS, and a Lighthouse mobile run (performance, accessibility) with Debian Chromium on
// ${APORTA_PUBLIC_URL}/d/<slug> of a campaign it creates and publishes in the stack it runs against.
//
// Lighthouse runs offline: it is the root package.json's exact-version devDependency, Chromium
// runs with background networking, component updates and sync disabled, and the page is local.
//
//	go run ./deploy/benchweb
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/aporta/aporta/internal/config"
	"github.com/aporta/aporta/internal/connections/sandboxauth"
	"github.com/aporta/aporta/tenants"
)

const chromeFlags = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking " +
	"--disable-component-update --disable-sync"

func main() {
	dist := flag.String("dist", "web/dist", "built web app")
	chrome := flag.String("chrome", "/usr/bin/chromium", "Chromium for Lighthouse")
	lhBin := flag.String("lighthouse", "node_modules/.bin/lighthouse", "Lighthouse CLI")
	skipLH := flag.Bool("skip-lighthouse", false, "only report JS sizes")
	flag.Parse()

	fmt.Println("Web benchmarks: the public donation form (/d/{slug})")
	donate, err := initialJS(*dist, "donate.html")
	if err != nil {
		log.Fatal("benchweb: ", err)
	}
	manage, err := initialJS(*dist, "index.html")
	if err != nil {
		log.Fatal("benchweb: ", err)
	}
	fmt.Printf("\n%-52s %8s %12s %12s   %s\n", "case", "chunks", "raw", "gzipped", "ratio to reference (gzipped)")
	fmt.Printf("%-52s %8d %12s %12s   %.2f× of reference\n", "donate page initial JS (donate.html)", len(donate.files),
		kib(donate.raw), kib(donate.gz), float64(donate.gz)/float64(manage.gz))
	fmt.Printf("%-52s %8d %12s %12s\n", "  reference: manage app initial JS (index.html)", len(manage.files), kib(manage.raw), kib(manage.gz))
	fmt.Println("  donate chunks (gzipped):")
	for _, f := range donate.files {
		fmt.Printf("    %-48s %12s\n", f.name, kib(f.gz))
	}

	if *skipLH {
		return
	}
	if err := lighthouse(*lhBin, *chrome); err != nil {
		fmt.Printf("\nLighthouse: not run: %v\n", err)
		os.Exit(1)
	}
}

type weight struct {
	files   []chunk
	raw, gz int
}

type chunk struct {
	name string
	gz   int
}

var (
	scriptSrc  = regexp.MustCompile(`<script[^>]*type="module"[^>]*src="([^"]+)"`)
	preload    = regexp.MustCompile(`<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"`)
	staticImps = regexp.MustCompile(`(?:\bimport|\bexport)\s*(?:[\w${}*,\s]+?\s*from\s*)?["']([^"']+\.js)["']`)
)

// initialJS sums the JS a page loads before any dynamic import: its module scripts, its
// modulepreloads and, transitively, their static imports.
func initialJS(dist, page string) (weight, error) {
	html, err := os.ReadFile(filepath.Join(dist, page))
	if err != nil {
		return weight{}, fmt.Errorf("%s: %w (run npm run build)", page, err)
	}
	var queue []string
	for _, re := range []*regexp.Regexp{scriptSrc, preload} {
		for _, m := range re.FindAllStringSubmatch(string(html), -1) {
			queue = append(queue, m[1])
		}
	}
	seen := map[string]bool{}
	var w weight
	for len(queue) > 0 {
		u := path.Clean("/" + queue[0])
		queue = queue[1:]
		if seen[u] || !strings.HasSuffix(u, ".js") {
			continue
		}
		seen[u] = true
		data, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(u)))
		if err != nil {
			return w, err
		}
		gz := gzipped(data)
		w.files = append(w.files, chunk{path.Base(u), gz})
		w.raw += len(data)
		w.gz += gz
		for _, m := range staticImps.FindAllStringSubmatch(string(data), -1) {
			if strings.HasPrefix(m[1], ".") || strings.HasPrefix(m[1], "/") {
				queue = append(queue, path.Join(path.Dir(u), m[1]))
			}
		}
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].gz > w.files[j].gz })
	return w, nil
}

func gzipped(data []byte) int {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.DefaultCompression)
	zw.Write(data)
	zw.Close()
	return b.Len()
}

func kib(n int) string { return fmt.Sprintf("%.1f KiB", float64(n)/1024) }

// publishCampaign creates an enabled organisation and a published campaign with preset amounts, and
// its public route, straight in the stack's databases; it answers the campaign's slug.
func publishCampaign(ctx context.Context) (string, error) {
	cfg, err := config.FromEnv()
	if err == nil {
		err = cfg.DevOnly("benchweb") // it writes test data straight into the databases
	}
	if err != nil {
		return "", err
	}
	tt, err := tenants.Open(ctx, cfg.DirectoryDSN, cfg.ShardDSNs, cfg.DB)
	if err != nil {
		return "", err
	}
	defer tt.Close()
	org, id := uuid.New(), uuid.New()
	slug := "bench-" + id.String()[:8]
	if err := tt.CreateOrganization(ctx, tenants.Organization{ID: org, Name: "Fundación Medición", Country: "AR", Status: "enabled"},
		"America/Argentina/Buenos_Aires"); err != nil {
		return "", err
	}
	scope, err := tt.ForOrganization(ctx, org)
	if err != nil {
		return "", err
	}
	// Its own sandbox MercadoPago account, connected by OAuth: the form opens with its public key.
	if _, err := sandboxauth.ConnectWith(ctx, cfg, scope, "MEDICION"+strings.ToUpper(org.String()[:8])); err != nil {
		return "", fmt.Errorf("connect the gateway: %w", err)
	}
	if err := scope.Exec(ctx, `INSERT INTO campaigns (organization_id, id, slug, title, description, type, currency, published, amounts)
		VALUES ($1, $2, $3, 'Ayudanos a llegar a más familias', 'Tu aporte mensual sostiene nuestros comedores.', 'custom', 'ARS', true,
		'[{"amount":500000,"label":""},{"amount":1000000,"label":""},{"amount":2000000,"label":""}]')`, org, id, slug); err != nil {
		return "", err
	}
	if err := tt.AddPublicRoute(ctx, slug, tenants.Route{CampaignID: id, OrganizationID: org, Country: scope.Country}); err != nil {
		return "", err
	}
	return slug, nil
}

func lighthouse(bin, chrome string) error {
	ctx := context.Background()
	base := strings.TrimRight(os.Getenv("APORTA_PUBLIC_URL"), "/")
	if base == "" {
		return fmt.Errorf("APORTA_PUBLIC_URL is not set (run under deploy/stack.sh)")
	}
	slug, err := publishCampaign(ctx)
	if err != nil {
		return fmt.Errorf("create campaign: %w", err)
	}
	url := base + "/d/" + slug
	res, err := http.Get(url)
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, res.Status)
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%s: %w (npm ci at the repository root installs it)", bin, err)
	}
	out, err := os.MkdirTemp("", "benchweb")
	if err != nil {
		return err
	}
	defer os.RemoveAll(out)
	report := filepath.Join(out, "report.json")
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, url,
		"--form-factor=mobile", "--screenEmulation.mobile", "--only-categories=performance,accessibility",
		"--chrome-flags="+chromeFlags, "--output=json", "--output-path="+report, "--quiet",
		"--max-wait-for-load=60000")
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chrome, "HOME="+out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("lighthouse: %w\n%s", err, tail(stderr.String(), 2000))
	}
	data, err := os.ReadFile(report)
	if err != nil {
		return err
	}
	var r struct {
		LighthouseVersion string `json:"lighthouseVersion"`
		RuntimeError      *struct {
			Code, Message string
		} `json:"runtimeError"`
		Categories map[string]struct {
			Score     *float64 `json:"score"`
			AuditRefs []struct {
				ID     string  `json:"id"`
				Weight float64 `json:"weight"`
			} `json:"auditRefs"`
		} `json:"categories"`
		Audits map[string]struct {
			DisplayValue string          `json:"displayValue"`
			Score        *float64        `json:"score"`
			Details      json.RawMessage `json:"details"`
		} `json:"audits"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	if r.RuntimeError != nil && r.RuntimeError.Code != "" {
		return fmt.Errorf("lighthouse runtime error %s: %s", r.RuntimeError.Code, r.RuntimeError.Message)
	}
	score := func(c string) string {
		if s := r.Categories[c].Score; s != nil {
			return fmt.Sprintf("%.0f", *s*100)
		}
		return "n/a"
	}
	fmt.Printf("\nLighthouse %s, mobile, Debian Chromium, %s (%s)\n", r.LighthouseVersion, url, time.Since(t0).Round(100*time.Millisecond))
	fmt.Printf("  performance %s   accessibility %s\n", score("performance"), score("accessibility"))
	var metrics []string
	for _, a := range []string{"first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"} {
		if v := r.Audits[a].DisplayValue; v != "" {
			metrics = append(metrics, a+" "+v)
		}
	}
	fmt.Printf("  %s\n", strings.Join(metrics, ", "))
	var netReqs struct {
		Items []struct {
			URL string `json:"url"`
		} `json:"items"`
	}
	_ = json.Unmarshal(r.Audits["network-requests"].Details, &netReqs)
	requests, external := 0, map[string]bool{}
	for _, it := range netReqs.Items {
		requests++
		if !strings.HasPrefix(it.URL, base) && !strings.HasPrefix(it.URL, "data:") && !strings.HasPrefix(it.URL, "blob:") {
			external[it.URL] = true
		}
	}
	fmt.Printf("  page requests: %d, outside %s: %d\n", requests, base, len(external))
	for u := range external {
		fmt.Printf("    external: %s\n", u)
	}
	// What Lighthouse flags for performance besides the metrics themselves (render-blocking resources,
	// unused JavaScript…), with its estimate, so a lower score says where to look.
	var flagged []string
	for _, ref := range r.Categories["performance"].AuditRefs {
		if a := r.Audits[ref.ID]; ref.Weight == 0 && a.Score != nil && *a.Score < 0.9 {
			flagged = append(flagged, strings.TrimSpace(ref.ID+" "+a.DisplayValue))
		}
	}
	sort.Strings(flagged)
	if len(flagged) > 0 {
		fmt.Printf("  performance audits flagged: %s\n", strings.Join(flagged, "; "))
	}
	var failing []string
	for _, ref := range r.Categories["accessibility"].AuditRefs {
		if a := r.Audits[ref.ID]; ref.Weight > 0 && a.Score != nil && *a.Score < 1 {
			failing = append(failing, ref.ID)
		}
	}
	sort.Strings(failing)
	if len(failing) > 0 {
		fmt.Printf("  accessibility audits not passed: %s\n", strings.Join(failing, ", "))
	}
	fmt.Println()
	return nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
