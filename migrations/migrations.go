// Package migrations embeds the numbered SQL migrations: directory/ for the control-plane database and
// shard/ for every country shard. tenants.Migrate applies them.
package migrations

import "embed"

//go:embed directory/*.sql shard/*.sql
var FS embed.FS
