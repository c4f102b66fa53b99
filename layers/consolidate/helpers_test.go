package consolidate

import (
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/render"
)

func contextOpts(budget int, files []string) render.ContextOptions {
	return render.ContextOptions{Budget: budget, Files: files}
}

func searchOpts(th float64) l4.SearchOptions { return l4.SearchOptions{Threshold: th, Max: 3} }
