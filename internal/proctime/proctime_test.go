package proctime

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 3}, // upper median
		{[]time.Duration{7, 7, 1, 7, 100}, 7},
	} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestInterleavedCountsEveryRun(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	// Each run appends its name to a file: the order shows the interleaving
	// and that warm-up rounds ran but were not returned.
	mark := func(name string) Run {
		return Run{Path: sh, Args: []string{"-c", "cat >/dev/null; echo " + name + " >> order"}, Dir: dir, Stdin: []byte("in")}
	}
	ds, err := Interleaved([]Run{mark("a"), mark("b")}, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || len(ds[0]) != 3 || len(ds[1]) != 3 {
		t.Fatalf("got %d runs of %v samples, want 2 of 3", len(ds), ds)
	}
	for _, run := range ds {
		for _, d := range run {
			if d <= 0 {
				t.Errorf("sample %v is not a duration", d)
			}
		}
	}
	out, err := exec.Command("cat", dir+"/order").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(out)); strings.Join(got, "") != "abababab" {
		t.Errorf("runs went %v, want a and b in turn, four rounds", got)
	}
}

func TestFailingRunIsAnError(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	_, err = Sample(Run{Path: sh, Args: []string{"-c", "echo broken >&2; exit 3"}}, 0, 1)
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("err = %v, want the failure with its stderr", err)
	}
}
