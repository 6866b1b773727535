package largeorg

import (
	"fmt"
	"io/fs"
	"strings"
)

// Queries holds the seeding steps read from sql/*.sql, each introduced by "-- name: X": bulk
// statements run by name, so the product's generated stores (internal/sharddb) do not carry them.
// Keeping SQL in files lets reviewers read it as SQL; loading fails at start-up, never mid-request.
type Queries map[string]string

// LoadQueries parses every .sql file of fsys. A duplicated name is an error.
func LoadQueries(fsys fs.FS) (Queries, error) {
	q := Queries{}
	files, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var name string
		var body strings.Builder
		flush := func() error {
			if name == "" {
				return nil
			}
			if _, dup := q[name]; dup {
				return fmt.Errorf("%s: query %q defined twice", f, name)
			}
			q[name] = strings.TrimSpace(body.String())
			body.Reset()
			return nil
		}
		for _, line := range strings.Split(string(b), "\n") {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "-- name:"); ok {
				if err := flush(); err != nil {
					return nil, err
				}
				name = strings.TrimSpace(n)
				continue
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// mustLoadQueries is LoadQueries for embedded files, which are fixed at build time.
func mustLoadQueries(fsys fs.FS, dir string) Queries {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	q, err := LoadQueries(sub)
	if err != nil {
		panic(err)
	}
	return q
}

// Get returns the named query; a missing name is a programming error caught by tests.
func (q Queries) Get(name string) string {
	s, ok := q[name]
	if !ok {
		panic("largeorg: no query named " + name)
	}
	return s
}
