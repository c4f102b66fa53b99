package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStreamSeam(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".claude", "memory"), 0o755)
	var out, errb bytes.Buffer
	s := &streams{in: strings.NewReader("from stdin\n"), out: &out, err: &errb}
	ctx := context.Background()
	if err := runStreamWrite(ctx, streamWriteOptions{Dir: dir, Type: "note", Summary: "hi", Content: "-", Surface: "cli", Direction: "in", Meta: []string{"a=b,c"}}, s); err != nil {
		t.Fatal(err)
	}
	var ue usageError
	if err := runStreamWrite(ctx, streamWriteOptions{Dir: dir, Type: "Bad", Summary: "hi", Surface: "cli", Direction: "in"}, s); !errors.As(err, &ue) {
		t.Fatalf("bad type: %v", err)
	}
	out.Reset()
	if err := runStreamQuery(ctx, streamQueryOptions{Dir: dir, Since: "1h", JSON: true}, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"content":"from stdin\n","metadata":{"a":"b,c"}`) {
		t.Fatalf("query: %s", out.String())
	}
	out.Reset()
	if err := runStreamQuery(ctx, streamQueryOptions{Dir: dir, Since: "1h", Now: time.Now().Add(3 * time.Hour)}, s); err != nil || out.Len() != 0 {
		t.Fatalf("window: %q %v", out.String(), err)
	}
	if err := runStreamValidate(ctx, streamCheckOptions{Dir: dir}, s); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".git/memkeep/memory/stream/2026-01.jsonl"), []byte("junk\n"), 0o644)
	out.Reset()
	err := runStreamValidate(ctx, streamCheckOptions{Dir: dir, JSON: true}, s)
	if err == nil || !strings.Contains(out.String(), `"line": 1`) {
		t.Fatalf("validate: %v %s", err, out.String())
	}
	out.Reset()
	if err := runStreamArchive(ctx, streamArchiveOptions{Dir: dir, OlderThan: "90d", Now: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), JSON: true}, s); err != nil || !strings.Contains(out.String(), `"2026-01"`) {
		t.Fatalf("archive: %v %s", err, out.String())
	}
	out.Reset()
	if err := runStreamStats(ctx, streamStatsOptions{Dir: dir}, s); err != nil || !strings.Contains(out.String(), "1 archived") {
		t.Fatalf("stats: %v %s", err, out.String())
	}
	t.Log(out.String())
}
