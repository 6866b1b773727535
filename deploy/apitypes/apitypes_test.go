package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The committed file is what the generator writes: a changed Go struct fails here until the
// TypeScript is regenerated (and the web then fails to compile where it relied on the old shape).
func TestCommittedTypesAreCurrent(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", Output))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date: run `go run ./deploy/apitypes` from the repository root and commit it", Output)
	}
}

type inner struct {
	N int `json:"n"`
}

type embedded struct {
	E string `json:"e"`
}

type sample struct {
	embedded
	Name     string            `json:"name"`
	Maybe    *inner            `json:"maybe"`
	Since    *time.Time        `json:"since"`
	List     []inner           `json:"list,omitempty"`
	Tags     map[string]string `json:"tags"`
	At       time.Time         `json:"at"`
	Count    int64             `json:"count,string"`
	Hidden   string            `json:"-"`
	internal string
	Anon     struct {
		OK bool `json:"ok"`
	} `json:"anon"`
}

func TestShapes(t *testing.T) {
	src, err := generate([]root{{"Sample", reflect.TypeFor[sample]()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface Sample {\n  e: string;\n  name: string;\n  maybe: inner | null;\n  since: string | null;\n  list?: inner[];\n  tags: Record<string, string>;\n  at: string;\n  count: string;\n  anon: {\n    ok: boolean;\n  };\n}",
		"export interface inner {\n  n: number;\n}",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("missing\n%s\nin\n%s", want, src)
		}
	}
}
