// Command schemagen writes deploy/k8s/schema: strict JSON schemas of the Kubernetes kinds the manifests use, for
// kubeconform to validate against offline (deploy/k8s/manifests_test.go). The source is the OpenAPI document that
// ships in the Kubernetes module on the Go module proxy, trimmed to the definitions those kinds reach:
//
//	go run ./deploy/k8s/schemagen
//
// Strict, as kubeconform's own "-strict" schemas: an object with declared properties refuses any other field (a
// misspelt key fails), IntOrString takes a string or an integer and Quantity a string or a number.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// kubernetes is the release whose API the schemas describe.
const kubernetes = "k8s.io/kubernetes@v1.34.1"

const quantity = "io.k8s.apimachinery.pkg.api.resource.Quantity"

// kinds are the definitions a manifest may be: add one here when deploy/k8s uses a new kind.
var kinds = []string{
	"io.k8s.api.apps.v1.Deployment",
	"io.k8s.api.apps.v1.StatefulSet",
	"io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
	"io.k8s.api.batch.v1.Job",
	"io.k8s.api.core.v1.ConfigMap",
	"io.k8s.api.core.v1.Namespace",
	"io.k8s.api.core.v1.Service",
	"io.k8s.api.core.v1.ServiceAccount",
	"io.k8s.api.networking.v1.Ingress",
	"io.k8s.api.networking.v1.NetworkPolicy",
	"io.k8s.api.policy.v1.PodDisruptionBudget",
}

func main() {
	out := filepath.Join("deploy", "k8s", "schema")
	dl, err := exec.Command("go", "mod", "download", "-json", kubernetes).Output()
	if err != nil {
		log.Fatalf("go mod download %s: %v", kubernetes, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(dl, &mod); err != nil {
		log.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(mod.Dir, "api", "openapi-spec", "swagger.json"))
	if err != nil {
		log.Fatal(err)
	}
	var doc struct {
		Definitions map[string]map[string]any `json:"definitions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		log.Fatal(err)
	}
	keep := map[string]any{}
	var visit func(name string)
	visit = func(name string) {
		if _, ok := keep[name]; ok {
			return
		}
		def, ok := doc.Definitions[name]
		if !ok {
			log.Fatalf("no definition %s", name)
		}
		keep[name] = nil // a cycle ends here
		keep[name] = convert(def, visit)
		if name == quantity { // "1", 1 and 0.5 are all quantities to the API server
			keep[name] = map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}
		}
	}
	for _, k := range kinds {
		visit(k)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		log.Fatal(err)
	}
	write(filepath.Join(out, "_definitions.json"), map[string]any{"definitions": keep})
	for _, k := range kinds {
		write(filepath.Join(out, fileName(k)), map[string]any{"$ref": "_definitions.json#/definitions/" + k})
	}
	fmt.Printf("%d kinds, %d definitions from %s in %s\n", len(kinds), len(keep), kubernetes, out)
}

// fileName is kubeconform's {{.ResourceKind}}{{.KindSuffix}}.json: the kind, group (its first label) and version.
func fileName(def string) string {
	parts := strings.Split(strings.TrimPrefix(def, "io.k8s.api."), ".") // group, version, Kind
	group, version, kind := parts[0], parts[1], parts[2]
	if group == "core" {
		return strings.ToLower(kind) + "-" + version + ".json"
	}
	return strings.ToLower(kind) + "-" + group + "-" + version + ".json"
}

// convert copies a schema without its documentation, strict, with references visited.
func convert(s map[string]any, visit func(string)) map[string]any {
	if f, _ := s["format"].(string); f == "int-or-string" {
		return map[string]any{"oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}}
	}
	out := map[string]any{}
	for k, v := range s {
		switch {
		case k == "description" || strings.HasPrefix(k, "x-"):
		case k == "$ref":
			name := strings.TrimPrefix(v.(string), "#/definitions/")
			visit(name)
			out[k] = v
		case k == "properties":
			props := map[string]any{}
			for name, p := range v.(map[string]any) {
				props[name] = convert(p.(map[string]any), visit)
			}
			out[k] = props
		case k == "items" || k == "additionalProperties":
			if m, ok := v.(map[string]any); ok {
				out[k] = convert(m, visit)
			} else {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	if _, ok := out["properties"]; ok {
		if _, set := out["additionalProperties"]; !set {
			out["additionalProperties"] = false
		}
	}
	return out
}

func write(path string, v any) {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
}
