// Command memkeep gives Claude Code a project memory kept as plain files in
// the project's own git repository. Run `memkeep --help` for the commands.
package main

import (
	"context"
	"os"

	"github.com/memkeep/memkeep/hooks"
)

func main() {
	// Hooks run on every turn of every session: `memkeep hook EVENT` goes
	// straight to its handler without building the command tree.
	if len(os.Args) == 3 && os.Args[1] == "hook" && os.Args[2] != "--help" && os.Args[2] != "-h" {
		os.Exit(hooks.Run(os.Args[2], os.Stdin, os.Stdout, hookDeps()))
	}
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}
