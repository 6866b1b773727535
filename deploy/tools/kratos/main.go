// Command kratos builds Ory Kratos from its pinned Go module: its own go.mod carries
// replace directives, so `go install` cannot build it directly.
package main

import "github.com/ory/kratos/cmd"

func main() { cmd.Execute() }
