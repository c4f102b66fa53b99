package l2

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. memkeep's hooks
// start a process per call, and Go initialises every linked package at
// start: compiling the extraction patterns eagerly cost every hook,
// including those that never extract.
type lazyRE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

func lazyRegexp(expr string) *lazyRE { return &lazyRE{expr: expr} }

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}
