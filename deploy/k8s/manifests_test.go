// Package k8s holds the production manifests (kustomize) and their offline checks: every rendered object validates
// against the Kubernetes 1.34 JSON schemas committed in schema/ (go run ./deploy/k8s/schemagen), and the
// configuration they give the processes is the one internal/config accepts in production.
package k8s

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yannh/kubeconform/pkg/validator"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/aporta/aporta/internal/config"
)

// object is the part of a rendered manifest the checks read.
type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string            `json:"name"`
		Namespace string            `json:"namespace"`
		Labels    map[string]string `json:"labels"`
	} `json:"metadata"`
	Data map[string]string `json:"data"`
	Spec struct {
		Replicas *int `json:"replicas"`
		Template struct {
			Spec struct {
				Containers []struct {
					Env []struct {
						Name  string `json:"name"`
						Value string `json:"value"`
					} `json:"env"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
}

// render runs kustomize on dir, as `kubectl apply -k dir` would, and returns the YAML stream.
func render(t *testing.T, dir string) []byte {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	y, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// invalid validates every object of a YAML stream against the committed schemas and returns each refusal. A kind
// without a schema is a refusal too: schemagen's list must name it.
func invalid(t *testing.T, stream []byte) []string {
	t.Helper()
	dir, err := filepath.Abs("schema")
	if err != nil {
		t.Fatal(err)
	}
	v, err := validator.New([]string{dir + "/{{ .ResourceKind }}{{ .KindSuffix }}.json"}, validator.Opts{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, r := range v.Validate("rendered", io.NopCloser(bytes.NewReader(stream))) {
		switch r.Status {
		case validator.Valid, validator.Empty:
		default:
			sig, _ := r.Resource.Signature()
			name := "?"
			if sig != nil {
				name = sig.Kind + "/" + sig.Name
			}
			msg := fmt.Sprint(r.Err)
			for _, e := range r.ValidationErrors {
				msg += fmt.Sprintf("; %s: %s", e.Path, e.Msg)
			}
			errs = append(errs, fmt.Sprintf("%s (%s): %s", name, map[validator.Status]string{validator.Invalid: "invalid",
				validator.Error: "error", validator.Skipped: "skipped"}[r.Status], msg))
		}
	}
	return errs
}

func objects(t *testing.T, stream []byte) []object {
	t.Helper()
	var out []object
	for _, doc := range bytes.Split(stream, []byte("\n---\n")) {
		var o object
		if err := yaml.Unmarshal(doc, &o); err != nil {
			t.Fatal(err)
		}
		if o.Kind != "" {
			out = append(out, o)
		}
	}
	return out
}

func find(objs []object, kind, namespace, name string) *object {
	for i, o := range objs {
		if o.Kind == kind && o.Metadata.Namespace == namespace && (o.Metadata.Name == name || strings.HasPrefix(o.Metadata.Name, name+"-")) {
			return &objs[i]
		}
	}
	return nil
}

// Every kustomization renders, and every object it renders is valid Kubernetes 1.34.
func TestManifestsAreValidKubernetes(t *testing.T) {
	dirs := []string{"base", "overlays/production"}
	for _, c := range config.Countries {
		dirs = append(dirs, "citus/countries/"+strings.ToLower(c))
	}
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			stream := render(t, dir)
			if n := len(objects(t, stream)); n == 0 {
				t.Fatal("rendered no object")
			}
			for _, e := range invalid(t, stream) {
				t.Error(e)
			}
		})
	}
}

// The validator refuses what the API server would: testdata/broken is a Deployment with a misspelt field, a string
// where a number goes, a wrong probe port type and a kind with no schema; each must be reported.
func TestBrokenManifestIsRefused(t *testing.T) {
	errs := strings.Join(invalid(t, render(t, "testdata/broken")), "\n")
	t.Log(errs)
	for _, want := range []string{
		"imagePulPolicy", // additional property not allowed
		"/spec/replicas", // "three" is not an integer
		"/spec/template/spec/containers/0/livenessProbe/httpGet/port", // a list is neither a string nor an integer
		"Certificate", // no schema for the kind
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("the validator did not report %s; it reported:\n%s", want, errs)
		}
	}
}

// The production overlay and the documented Secret keys make a configuration that internal/config accepts in
// production: the rendered ConfigMap's values, the Secret's keys with made-up credentials, and APORTA_SHARD_DSNS
// naming each country's coordinator Service as rendered.
func TestProductionConfigurationIsAccepted(t *testing.T) {
	objs := objects(t, render(t, "overlays/production"))
	cm := find(objs, "ConfigMap", "aporta", "aporta-config")
	if cm == nil {
		t.Fatal("no ConfigMap aporta-config in namespace aporta")
	}
	secretKeys := envFileKeys(t, "secrets/aporta.env.example")
	read := configVariables(t)
	for _, k := range append(slices.Sorted(maps.Keys(cm.Data)), secretKeys...) {
		if !read[k] {
			t.Errorf("%s is not a variable internal/config reads", k)
		}
	}
	for _, k := range secretKeys {
		if _, ok := cm.Data[k]; ok {
			t.Errorf("%s is both in the ConfigMap and in the Secret", k)
		}
	}

	var shards []string
	for _, c := range config.Countries {
		ns := "citus-" + strings.ToLower(c)
		if find(objs, "Service", ns, "citus-coordinator") == nil {
			t.Errorf("no coordinator Service for %s in namespace %s", c, ns)
		}
		shards = append(shards, fmt.Sprintf("%s=postgres://aporta:%s@citus-coordinator.%s.svc:5432/aporta", c, random(t), ns))
	}
	for _, kv := range os.Environ() { // a test stack's own variables must not fill the gaps
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "APORTA_") {
			t.Setenv(k, "")
		}
	}
	for k, v := range cm.Data {
		t.Setenv(k, v)
	}
	made := map[string]string{
		"APORTA_DIRECTORY_DSN":      "postgres://aporta:" + random(t) + "@directory-db.aporta.svc:5432/aporta_directory",
		"APORTA_SHARD_DSNS":         strings.Join(shards, ","),
		"APORTA_SECRETS_URL":        "base64key://" + base64.URLEncoding.EncodeToString([]byte(random(t)[:32])),
		"APORTA_GATEWAY_TOKEN":      "APP_USR-" + random(t),
		"APORTA_GATEWAY_PUBLIC_KEY": "APP_USR-" + random(t),
	}
	for _, k := range secretKeys {
		v, ok := made[k]
		if !ok && k != "APORTA_SECRETS_PREVIOUS_URLS" {
			v = random(t)
		}
		t.Setenv(k, v)
	}
	cfg, err := config.FromEnv()
	if err != nil {
		t.Fatalf("production configuration refused:\n%v", err)
	}
	if cfg.Env != "production" || len(cfg.ShardDSNs) != len(config.Countries) {
		t.Errorf("env %q with %d shards", cfg.Env, len(cfg.ShardDSNs))
	}
}

// Each country's register Job adds as many workers as its StatefulSet runs, so none is left out of pg_dist_node.
func TestCitusWorkersAreRegistered(t *testing.T) {
	objs := objects(t, render(t, "overlays/production"))
	for _, c := range config.Countries {
		ns := "citus-" + strings.ToLower(c)
		sts, job := find(objs, "StatefulSet", ns, "citus-worker"), find(objs, "Job", ns, "citus-register")
		if sts == nil || job == nil || sts.Spec.Replicas == nil {
			t.Errorf("%s: no worker StatefulSet or register Job", c)
			continue
		}
		want := fmt.Sprint(*sts.Spec.Replicas)
		got := ""
		for _, e := range job.Spec.Template.Spec.Containers[0].Env {
			if e.Name == "CITUS_WORKERS" {
				got = e.Value
			}
		}
		if got != want {
			t.Errorf("%s: the register Job adds %q workers, the StatefulSet runs %s", c, got, want)
		}
		if sts.Metadata.Labels["aporta.io/country"] != c {
			t.Errorf("%s: worker StatefulSet labelled %q", c, sts.Metadata.Labels["aporta.io/country"])
		}
	}
}

// The Helm values are YAML and agree with the manifests: Temporal creates the namespace the processes use, and
// Kratos's public URL and courier target are serve's, as rendered for production.
func TestHelmValues(t *testing.T) {
	objs := objects(t, render(t, "overlays/production"))
	cm := find(objs, "ConfigMap", "aporta", "aporta-config")
	if cm == nil || find(objs, "Service", "aporta", "aporta-serve") == nil {
		t.Fatal("no ConfigMap aporta-config or Service aporta-serve in namespace aporta")
	}
	want := map[string][]string{
		"temporal": {"- name: " + cm.Data["APORTA_TEMPORAL_NAMESPACE"] + " "},
		"kratos": {cm.Data["APORTA_PUBLIC_URL"] + "/.ory/kratos/public/",
			"http://aporta-serve.aporta.svc" + cm.Data["APORTA_HTTP_ADDR"] + "/internal/courier/messages"},
		"keto": {},
	}
	for f, needles := range want {
		b, err := os.ReadFile("helm/" + f + "-values.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := yaml.Unmarshal(b, &v); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		for _, n := range needles {
			if !bytes.Contains(b, []byte(n)) {
				t.Errorf("helm/%s-values.yaml does not name %s", f, n)
			}
		}
	}
}

// configVariables are the APORTA_* names internal/config reads.
func configVariables(t *testing.T) map[string]bool {
	b, err := os.ReadFile("../../internal/config/config.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`"(APORTA_[A-Z0-9_]+)"`).FindAllSubmatch(b, -1) {
		out[string(m[1])] = true
	}
	return out
}

func envFileKeys(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var keys []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		if v != "" {
			t.Errorf("%s: %s has a value; the example holds no credential", path, k)
		}
		keys = append(keys, k)
	}
	return keys
}

func random(t *testing.T) string {
	b := make([]byte, 36)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
