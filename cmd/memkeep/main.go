// Command memkeep gives Claude Code a project memory kept as plain files in
// the project's own git repository. Run `memkeep --help` for the commands.
package main

import (
	"context"
	"os"
	"runtime/debug"

	"github.com/memkeep/memkeep/hooks"
)

func main() {
	// Hooks run on every turn of every session: `memkeep hook EVENT` goes
	// straight to its handler without building the command tree.
	if len(os.Args) == 3 && os.Args[1] == "hook" && os.Args[2] != "--help" && os.Args[2] != "-h" {
		shortLived()
		os.Exit(hooks.Run(os.Args[2], os.Stdin, os.Stdout, hookDeps()))
	}
	onQuery = shortLived
	os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// onQuery runs when `memkeep recall` has parsed its flags and will search,
// not rebuild the index (which holds the whole index in memory): main sets
// it to shortLived; tests, running commands in their own process, leave
// it unset.
var onQuery func()

// shortLived tunes the garbage collector for a process that lives a few
// milliseconds, a hook or a query: with Go's default the first collections
// start at 4 MB of heap, and a search over a large memory allocates tens of
// megabytes it keeps until it exits, so they would cost time and free
// nothing. The heap may grow to five times what is live, bounded by a soft
// limit past which the collector works as usual. GOGC and GOMEMLIMIT in the
// environment still win.
func shortLived() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}
