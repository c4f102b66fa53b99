// Command memkeep gives Claude Code a project memory kept as plain files in
// the project's own git repository. Run `memkeep --help` for the commands.
package main

import (
	"context"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}
