package main

import (
	"github.com/memkeep/memkeep/hooks"
)

// hookDeps connects the hooks to the layers that do the work.
func hookDeps() hooks.Deps {
	return hooks.Deps{}
}
