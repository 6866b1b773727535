// Package web embeds the built web app (web/dist, produced by `npm run build`) into the aporta binary.
package web

import (
	"embed"
	"encoding/json"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built app: index.html and assets/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}

//go:embed api-prefixes.json
var apiPrefixesJSON []byte

// APIPrefixes are the path prefixes that belong to the API, not to the web app: the server answers
// JSON there for unknown paths, and Vite's dev server proxies them (vite.config.ts reads the same
// file, so the two lists cannot drift).
func APIPrefixes() []string {
	var p []string
	if err := json.Unmarshal(apiPrefixesJSON, &p); err != nil {
		panic(err) // a file embedded at build time
	}
	return p
}
