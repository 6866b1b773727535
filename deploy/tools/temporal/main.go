// Command temporal builds the Temporal CLI (its dev server runs our dev and test stacks) from its pinned Go
// module with a newer SQLite driver: modernc.org/sqlite before v1.44 can keep answering every statement with
// "interrupted (9)" after one interrupted query, until the process restarts. Under load the dev server's
// namespace then vanished ("Namespace default is not found") and every test on that stack failed. Temporal
// moved to v1.44.3 for the same reason (temporalio/temporal#9198); the CLI v1.5.1 still pins v1.34.1, and the
// CLI releases that carry the fix cannot be built outside their own repository (a replace directive).
package main

import (
	"context"

	"github.com/temporalio/cli/temporalcli"

	_ "modernc.org/sqlite"
	_ "time/tzdata"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	temporalcli.Execute(ctx, temporalcli.CommandOptions{})
}
