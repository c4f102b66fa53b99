package recall

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/layers/memdir"
)

func TestDbgTerms(t *testing.T) {
	q := os.Getenv("DBG_T")
	if q == "" {
		t.Skip()
	}
	l, err := memdir.Find("/tmp/pG")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(l, "")
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for _, w := range strings.Fields(q) {
		fmt.Printf("%s df=%d\n", w, ix.df(w))
		for _, s := range ix.segs {
			i := s.seek(w)
			for k := i; k < i+5 && k < s.nTerms; k++ {
				fmt.Printf("   %s\n", s.termAt(k))
			}
			break
		}
	}
}
