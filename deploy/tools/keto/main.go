// Command keto builds Ory Keto from its pinned Go module (see deploy/tools/kratos).
package main

import "github.com/ory/keto/cmd"

func main() { cmd.Execute() }
