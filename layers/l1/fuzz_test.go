package l1

import (
	"bytes"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
)

// FuzzRefine feeds arbitrary bytes to the refiner: it must never panic,
// and refining in two increments (cut anywhere) must give the same L1 as
// refining at once.
func FuzzRefine(f *testing.F) {
	for _, fx := range append(fixtures.Benign(), fixtures.Secrets()) {
		f.Add(fx.Data, uint(len(fx.Data)/2))
	}
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":[1]}]}}`+"\n"), uint(3))
	f.Add([]byte("{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Bash\",\"input\":{\"command\":\"\\\\\"}}]}}\n"), uint(10))
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		start := time.Now()
		defer func() {
			// A hook refines every turn: no input may be slow to refine.
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("refining %d bytes took %v", len(data), d)
			}
		}()
		whole := NewRefiner(Options{Root: "/p"})
		wrecs, err := whole.Feed(bytes.NewReader(data), 0, true)
		if err != nil {
			t.Fatal(err)
		}
		wrecs = append(wrecs, whole.Flush()...)

		c := int(cut % uint(len(data)+1))
		// A hook sees the first c bytes, then the rest.
		inc := NewRefiner(Options{Root: "/p"})
		irecs, err := inc.Feed(bytes.NewReader(data[:c]), 0, false)
		if err != nil {
			t.Fatal(err)
		}
		st := inc.State()
		inc2 := ResumeRefiner(st, Options{Root: "/p"})
		more, err := inc2.Feed(bytes.NewReader(data[st.Offset:]), st.Offset, true)
		if err != nil {
			t.Fatal(err)
		}
		irecs = append(irecs, more...)
		irecs = append(irecs, inc2.Flush()...)
		if !bytes.Equal(Encode(wrecs), Encode(irecs)) {
			t.Fatalf("cut at %d: incremental differs from whole\n whole %s\n   inc %s", c, Encode(wrecs), Encode(irecs))
		}
	})
}
