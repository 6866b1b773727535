// Package archtest keeps the direction of imports that ARCHITECTURE.md draws: api/<domain> →
// workflows/<x> → leaf packages (internal/...) → tenants. It reads the module's import graph with
// `go list -deps -json ./...` and fails on any arrow that points the other way.
package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/aporta/aporta"

// plumbing are the api packages every endpoint shares (errors, permissions, the endpoint adapter,
// request decoding, middleware, idempotency keys, rate limits, the Kratos proxy, the outbox's HTTP
// courier, the web app, health checks, test helpers): not domains, so any api package may import
// them (ARCHITECTURE.md's map).
var plumbing = []string{"apierror", "authz", "endpoint", "request", "middleware", "idempotency", "ratelimit", "kratosproxy",
	"courier", "spa", "health", "apitest"}

// domainEdges are the imports between api domains that exist today and cannot be cut without
// moving a domain service out of api/ (each is a call into the other domain's service):
var domainEdges = map[string][]string{
	"donation":     {"campaign"},                         // the public form reads its published campaign (campaign.Service.FormBySlug)
	"seed":         {"campaign", "donation", "gateways"}, // the dev seed creates the demo campaigns, offers their discard reasons and connects its gateway
	"organization": {"document"},                         // an organisation's verification is its documents' review
	"staff":        {"document", "organization"},         // the staff console reviews documents and organisations
	"user":         {"account"},                          // user management reuses account sign-up and sessions
}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func packages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var ps []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if under(p.ImportPath, module) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		t.Fatal("go list found no packages of the module")
	}
	return ps
}

// under says whether path is root or inside it.
func under(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

// apiDomain is the api/<domain> of a package path ("" when it is not one).
func apiDomain(path string) string {
	rest, ok := strings.CutPrefix(path, module+"/api/")
	if !ok {
		return ""
	}
	d, _, _ := strings.Cut(rest, "/")
	if slices.Contains(plumbing, d) {
		return ""
	}
	return d
}

// rule forbids packages under one of from to depend, even through others, on a package matching to.
type rule struct {
	name string
	from []string
	to   func(dep string) bool
}

func TestImportsFlowOneWay(t *testing.T) {
	t.Parallel()
	isAPI := func(dep string) bool { return under(dep, module+"/api") }
	isGin := func(dep string) bool { return dep == "github.com/gin-gonic/gin" }
	isWorkflow := func(dep string) bool { return under(dep, module+"/workflows") }
	rules := []rule{
		{name: "a worker links neither Gin nor the HTTP layer", from: []string{"workflows", "internal"},
			to: func(d string) bool { return isGin(d) || isAPI(d) }},
		{name: "leaf packages do not know workflows", from: []string{"internal"}, to: isWorkflow},
		{name: "tenants and identity sit below api and workflows", from: []string{"tenants", "identity"},
			to: func(d string) bool { return isAPI(d) || isWorkflow(d) }},
	}
	var broken []string
	for _, p := range packages(t) {
		for _, r := range rules {
			if !slices.ContainsFunc(r.from, func(f string) bool { return under(p.ImportPath, module+"/"+f) }) {
				continue
			}
			for _, d := range p.Deps {
				if r.to(d) {
					broken = append(broken, fmt.Sprintf("%s: %s depends on %s", r.name, p.ImportPath, d))
				}
			}
		}
		// An api domain calls another only where domainEdges says so.
		if from := apiDomain(p.ImportPath); from != "" {
			for _, d := range p.Imports {
				if to := apiDomain(d); to != "" && to != from && !slices.Contains(domainEdges[from], to) {
					broken = append(broken, fmt.Sprintf("api domains stay apart: %s imports %s (not in domainEdges)", p.ImportPath, d))
				}
			}
		}
	}
	if len(broken) > 0 {
		t.Errorf("imports against the direction of ARCHITECTURE.md:\n%s", strings.Join(broken, "\n"))
	}
}
