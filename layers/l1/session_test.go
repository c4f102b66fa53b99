package l1

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/layers/memdir"
)

func syncLayout(t *testing.T) memdir.Layout {
	t.Helper()
	root := t.TempDir()
	l := memdir.Layout{Root: root, GitDir: filepath.Join(root, ".git"), CommonDir: filepath.Join(root, ".git")}
	if err := os.MkdirAll(l.SessionsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	return l
}

func fileLines(t *testing.T, p string) int {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte{'\n'})
}

// checkSync syncs the transcript and checks that FirstLine and Lines
// number the new records as they stand in the L1 file.
func checkSync(t *testing.T, l memdir.Layout, transcript string, opts SyncOptions) SyncResult {
	t.Helper()
	res, err := Sync(l, transcript, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Base == "" {
		return res
	}
	n := fileLines(t, l.L1File(res.Base))
	if res.Lines != n && opts.Base == "" {
		t.Errorf("Lines = %d, the L1 file has %d", res.Lines, n)
	}
	if len(res.New) > 0 && res.FirstLine+len(res.New)-1 != n {
		t.Errorf("new records numbered %d..%d, but they end the file at line %d", res.FirstLine, res.FirstLine+len(res.New)-1, n)
	}
	return res
}

// TestSyncNumbersLinesWhenOthersAppend: Sync keeps the L1 file's line
// count in its state to avoid reading the file on every Stop; the count
// must be redone whenever something else wrote to the file meanwhile (a
// subagent's transcript goes into its parent's file, a merge adds lines).
func TestSyncNumbersLinesWhenOthersAppend(t *testing.T) {
	l := syncLayout(t)
	dir := t.TempDir()
	parent := filepath.Join(dir, "session.jsonl")
	data := fixtures.V21().Data
	cut := bytes.Index(data, []byte("msg_v21_3")) // mid-session
	cut = bytes.LastIndexByte(data[:cut], '\n') + 1
	if err := os.WriteFile(parent, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	first := checkSync(t, l, parent, SyncOptions{})
	if len(first.New) == 0 {
		t.Fatal("the first half of the session gave no records")
	}

	// A subagent finishes: its records are appended to the parent's file.
	agent := filepath.Join(dir, "agent-a7b1c2d.jsonl")
	if err := os.WriteFile(agent, fixtures.Subagent().Data, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := checkSync(t, l, agent, SyncOptions{Base: first.Base, Final: true})
	if len(sub.New) == 0 {
		t.Fatal("the subagent gave no records")
	}
	// And someone else adds a line (a merge of the file, say).
	f, err := os.OpenFile(l.L1File(first.Base), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"k\":\"prompt\",\"text\":\"from another clone\"}\n")
	f.Close()

	// The parent goes on: its new records must be numbered after all of it.
	f, _ = os.OpenFile(parent, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(data[cut:])
	f.Close()
	second := checkSync(t, l, parent, SyncOptions{})
	if len(second.New) == 0 {
		t.Fatal("the second half of the session gave no records")
	}
	if want := fileLines(t, l.L1File(first.Base)) - len(second.New) + 1; second.FirstLine != want {
		t.Errorf("FirstLine = %d, want %d", second.FirstLine, want)
	}

	// With nothing else written, the next turn is numbered from the state.
	f, _ = os.OpenFile(parent, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(fixtures.NewBuilder("2.1.39", "33333333-aaaa-4bbb-8ccc-000000000021", fixtures.Root).Prompt("one more thing").Bytes())
	f.Close()
	checkSync(t, l, parent, SyncOptions{})
}

// TestImportKeepsWhatTheHooksRecorded: importing a session the hooks
// already record must not rewrite its L1 file (L2 ranges point at its
// lines, and a whole refine orders a subagent's records differently); it
// appends only what is new, and leaves an unfinished last turn for later.
func TestImportKeepsWhatTheHooksRecorded(t *testing.T) {
	l := syncLayout(t)
	dir := t.TempDir()
	main := filepath.Join(dir, "33333333-aaaa-4bbb-8ccc-000000000021.jsonl")
	sub := filepath.Join(dir, "33333333-aaaa-4bbb-8ccc-000000000021", "subagents", "agent-a7b1c2d.jsonl")
	os.MkdirAll(filepath.Dir(sub), 0o755)
	data := fixtures.V21().Data
	lines := bytes.SplitAfter(data, []byte("\n"))
	half := bytes.Join(lines[:len(lines)/2], nil)
	// The hooks: half the session, then the subagent finishing, then the
	// rest of the session.
	os.WriteFile(main, half, 0o644)
	res := checkSync(t, l, main, SyncOptions{})
	os.WriteFile(sub, fixtures.Subagent().Data, 0o644)
	checkSync(t, l, sub, SyncOptions{Base: res.Base, Final: true})
	os.WriteFile(main, data, 0o644)
	checkSync(t, l, main, SyncOptions{})
	before, err := os.ReadFile(l.L1File(res.Base))
	if err != nil {
		t.Fatal(err)
	}
	// The user runs import while Claude Code writes the next line.
	f, _ := os.OpenFile(main, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"user","message":{"role":"user","content":"half a li`)
	f.Close()
	imp, err := Import(l, main, []string{sub})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(l.L1File(res.Base))
	if imp.Base != res.Base || !bytes.HasPrefix(after, before) {
		t.Fatalf("import rewrote the session's L1 file (base %s, was %s):\nbefore\n%s\nafter\n%s", imp.Base, res.Base, before, after)
	}
	// A second import changes nothing.
	if _, err := Import(l, main, []string{sub}); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(l.L1File(res.Base)); !bytes.Equal(again, after) {
		t.Error("a second import changed the L1 file")
	}
}

// TestStopWritesTheTurnsLastText: at Stop the turn's last assistant text
// is whole, and goes into L1 then rather than at the next prompt; the L1
// file still has the bytes a whole refine gives.
func TestStopWritesTheTurnsLastText(t *testing.T) {
	l := syncLayout(t)
	transcript := filepath.Join(t.TempDir(), "55555555-aaaa-4bbb-8ccc-000000000055.jsonl")
	final := "Fixed: the nil map in cart.go is now initialised, and the tests pass."
	b := fixtures.NewBuilder("2.1.330", "55555555-aaaa-4bbb-8ccc-000000000055", fixtures.Root)
	b.Prompt("the cart total panics")
	b.Assistant("msg_1", fixtures.ToolUse("toolu_1", "Bash", map[string]any{"command": "go test ./cart"}))
	b.ToolResult("toolu_1", "ok", false, nil)
	b.Assistant("msg_2", fixtures.Text("Looking at it."), fixtures.Text(final))
	turn1 := b.Bytes()
	os.WriteFile(transcript, turn1, 0o644)

	// The message is not over yet (Claude Code still writing its last
	// block): the text waits.
	res := checkSync(t, l, transcript, SyncOptions{LastMessage: "Looking at it.\n\nAnd one more thing."})
	for _, r := range res.New {
		if r.Kind == KindText {
			t.Fatalf("text written before its message ended: %+v", r)
		}
	}
	res = checkSync(t, l, transcript, SyncOptions{LastMessage: "Looking at it.\n\n" + final})
	var text *Record
	for i := range res.New {
		if res.New[i].Kind == KindText {
			text = &res.New[i]
		}
	}
	if text == nil || !strings.HasSuffix(text.Text, final) {
		t.Fatalf("Stop did not write the turn's last text: %+v", res.New)
	}

	// The next turn, then the session's end: the file is what a whole
	// refine writes.
	b.Prompt("now add a test")
	b.Assistant("msg_3", fixtures.Text("Added."))
	os.WriteFile(transcript, b.Bytes(), 0o644)
	checkSync(t, l, transcript, SyncOptions{Final: true})
	whole, _, err := RefineFile(transcript, Options{Root: l.Root})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(l.L1File(res.Base))
	if want := Encode(whole); !bytes.Equal(got, want) {
		t.Errorf("L1 after Stop differs from a whole refine:\n got\n%s\nwant\n%s", got, want)
	}
}
