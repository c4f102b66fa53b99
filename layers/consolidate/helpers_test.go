package consolidate

import (
	"github.com/memkeep/memkeep/render"
)

func contextOpts(budget int, files []string) render.ContextOptions {
	return render.ContextOptions{Budget: budget, Files: files}
}
