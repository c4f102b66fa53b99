package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memkeep/memkeep/fixtures"
	"github.com/memkeep/memkeep/hooks"
	"github.com/memkeep/memkeep/internal/proctime"
	"github.com/memkeep/memkeep/layers/config"
	"github.com/memkeep/memkeep/layers/l2"
	"github.com/memkeep/memkeep/layers/l3"
	"github.com/memkeep/memkeep/layers/l4"
	"github.com/memkeep/memkeep/layers/memdir"
)

// Whole-process hook latency, the time Claude Code waits on every call,
// reported as medians next to the process-start floor (`true`) measured in
// the same run. Run with:
//
//	go test ./cmd/memkeep -run '^$' -bench Hook -benchtime 1x
//
// The memkeep timed is built from this tree, whichever commit the test
// binary was built from; MEMKEEP_BENCH_MEMKEEP=path times another build
// instead, to compare two commits:
//
//	git stash; go build -o /tmp/memkeep-old ./cmd/memkeep; git stash pop
//	MEMKEEP_BENCH_MEMKEEP=/tmp/memkeep-old go test ./cmd/memkeep -run '^$' -bench Hook -benchtime 1x

// builds holds the binaries built by this test process, by package.
var builds struct {
	sync.Mutex
	bins map[string]string
}

// goBuild builds the main package in pkg once per test process, as a
// binary called name, and returns its path.
func goBuild(tb testing.TB, pkg, name string) string {
	tb.Helper()
	builds.Lock()
	defer builds.Unlock()
	if bin, ok := builds.bins[pkg]; ok {
		return bin
	}
	dir, err := os.MkdirTemp("", "memkeep-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	// The binary is timed from a copy written with write(2), not from the
	// file the Go linker wrote, so that the binaries compared, memkeep and
	// the empty Go program, reach the page cache the same way. A freshly
	// linked memkeep once ran slower than its copy; when last checked (four
	// alternating rounds of perf stat -r 100) the two were within noise.
	bin := filepath.Join(dir, name)
	linked := bin + ".linked"
	if other := os.Getenv("MEMKEEP_BENCH_MEMKEEP"); other != "" && name == "memkeep" {
		// Another build of memkeep (another commit's) is timed instead of
		// this tree's: the benchmarks' only way to compare two.
		linked = other
	} else {
		if out, err := exec.Command("go", "build", "-o", linked, pkg).CombinedOutput(); err != nil {
			tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		defer os.Remove(linked)
	}
	b, err := os.ReadFile(linked)
	if err == nil {
		err = os.WriteFile(bin, b, 0o755)
	}
	if err != nil {
		tb.Fatal(err)
	}
	if builds.bins == nil {
		builds.bins = map[string]string{}
	}
	builds.bins[pkg] = bin
	return bin
}

// memkeepBinary is the memkeep binary.
func memkeepBinary(tb testing.TB) string { return goBuild(tb, ".", "memkeep") }

// emptyGoBinary is testdata/emptygo, the Go floor: a program that reads
// stdin and prints {}.
func emptyGoBinary(tb testing.TB) string { return goBuild(tb, "./testdata/emptygo", "emptygo") }

// benchProject makes a git repository with memkeep's memory folder.
func benchProject(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v %s", err, out)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".claude", "memory"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func hookPayload(tb testing.TB, fields map[string]any) []byte {
	b, err := json.Marshal(fields)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// reportVsFloor times run against two floors in the same run, the runs
// interleaved so that the machine's drift touches all three alike:
// `true` (a process start) and an empty Go program fed the same stdin (a
// Go runtime start). It reports the three medians and the ratios.
func reportVsFloor(b *testing.B, name string, run proctime.Run, n int) {
	b.Helper()
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no `true` on PATH for the floor")
	}
	runs := []proctime.Run{{Path: truePath}, {Path: emptyGoBinary(b), Stdin: run.Stdin, Env: run.Env}, run}
	ds, err := proctime.Interleaved(runs, 10, n)
	if err != nil {
		b.Fatal(err)
	}
	mf, mg, md := proctime.Median(ds[0]), proctime.Median(ds[1]), proctime.Median(ds[2])
	b.ReportMetric(float64(md.Microseconds())/1000, "ms/median")
	b.ReportMetric(float64(mf.Microseconds())/1000, "ms/floor")
	b.ReportMetric(float64(mg.Microseconds())/1000, "ms/go-floor")
	b.Logf("%s: median %s; floor: true %s (%.1fx), empty Go program %s (%.2fx)", name, proctime.Ms(md),
		proctime.Ms(mf), float64(md)/float64(mf), proctime.Ms(mg), float64(md)/float64(mg))
}

func BenchmarkHookPostToolUse(b *testing.B) {
	bin := memkeepBinary(b)
	dir := benchProject(b)
	in := hookPayload(b, map[string]any{
		"session_id": "bench", "cwd": dir, "hook_event_name": "PostToolUse", "tool_name": "Edit",
		"tool_input":    map[string]any{"file_path": filepath.Join(dir, "api", "handler.go"), "old_string": "if x {", "new_string": "if x != nil {"},
		"tool_response": map[string]any{"filePath": filepath.Join(dir, "api", "handler.go"), "success": true},
	})
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, "PostToolUse", proctime.Run{Path: bin, Args: []string{"hook", "PostToolUse"}, Dir: dir, Stdin: in, Env: benchEnv()}, 200)
	}
}

// BenchmarkHookStopTail is Stop after one new turn at the end of a 20 MB
// transcript: the refinement must read only the tail.
func BenchmarkHookStopTail(b *testing.B) {
	b.Run("inline", func(b *testing.B) { hookStopTail(b, false) })
	b.Run("background", func(b *testing.B) { hookStopTail(b, true) })
}

// hookStopTail times Stop after one new turn at the end of a 20 MB
// transcript. inline does all of Stop's work in the hook; background lets
// it hand Settle, the recall index and the commit to its background
// process (as it does for users), which is waited for before the next
// run and not timed: the figure is what the turn waits for.
func hookStopTail(b *testing.B, background bool) {
	bin := memkeepBinary(b)
	dir := benchProject(b)
	transcript := filepath.Join(b.TempDir(), "session.jsonl")
	big := fixtures.Large(20 << 20)
	if err := os.WriteFile(transcript, big.Data, 0o644); err != nil {
		b.Fatal(err)
	}
	in := hookPayload(b, map[string]any{
		"session_id": "77777777-aaaa-4bbb-8ccc-000000000077", "cwd": dir, "hook_event_name": "Stop",
		"transcript_path": transcript, "stop_hook_active": false, "last_assistant_message": "Validation tightened; tests pass.",
	})
	run := proctime.Run{Path: bin, Args: []string{"hook", "Stop"}, Dir: dir, Stdin: in, Env: benchEnv()}
	if background {
		run.Env = slices.DeleteFunc(slices.Clone(run.Env), func(kv string) bool { return strings.HasPrefix(kv, "MEMKEEP_NO_SPAWN=") })
	}
	// The first Stop refines the whole 20 MB; later ones only what is new.
	if _, err := proctime.Sample(run, 0, 1); err != nil {
		b.Fatal(err)
	}
	waitForProcesses(bin) // the first Stop's background run
	// Each timed Stop sees one new turn: the repository (HEAD, which a
	// memory commit moves, and memkeep's state under .git) and the
	// memory folder are put back before it.
	stateDir := filepath.Join(dir, ".git")
	snapshot := filepath.Join(b.TempDir(), "state")
	if out, err := exec.Command("cp", "-a", stateDir, snapshot).CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	memSnap := filepath.Join(b.TempDir(), "memory")
	if out, err := exec.Command("cp", "-a", filepath.Join(dir, ".claude", "memory"), memSnap).CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	turn := fixtures.Large(1).Data
	f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(turn)
	f.Close()
	// The turn's tool calls went through PostToolUse (a read, an edit, a
	// command), so Stop sees new material and runs its whole check.
	ptu := func(tool string) []byte {
		return hookPayload(b, map[string]any{"session_id": "77777777-aaaa-4bbb-8ccc-000000000077", "cwd": dir, "hook_event_name": "PostToolUse", "tool_name": tool, "tool_input": map[string]any{"file_path": filepath.Join(dir, "api", "handler.go")}})
	}
	run.Before = func() error {
		waitForProcesses(bin)
		for _, p := range [][2]string{{snapshot, stateDir}, {memSnap, filepath.Join(dir, ".claude", "memory")}} {
			os.RemoveAll(p[1])
			if out, err := exec.Command("cp", "-a", p[0], p[1]).CombinedOutput(); err != nil {
				b.Fatalf("%v %s", err, out)
			}
		}
		for _, tool := range []string{"Read", "Edit", "Bash"} {
			cmd := exec.Command(bin, "hook", "PostToolUse")
			cmd.Dir, cmd.Env, cmd.Stdin = dir, benchEnv(), bytes.NewReader(ptu(tool))
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("PostToolUse: %v %s", err, out)
			}
		}
		return nil
	}
	what := "Stop (one new turn, 20 MB transcript, all in the hook)"
	if background {
		what = "Stop (one new turn, 20 MB transcript, settling in the background)"
	}
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, what, run, 40)
	}
	waitForProcesses(bin)
}

// waitForProcesses waits, up to a minute, until no process runs the
// program bin (the background runs a hook started).
func waitForProcesses(bin string) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		busy := false
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if exe, err := os.Readlink("/proc/" + e.Name() + "/exe"); err == nil && exe == bin {
				busy = true
				break
			}
		}
		if !busy {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// benchEnv keeps background work out of the timings.
func benchEnv() []string {
	// Run from inside a Claude Code session, CLAUDE_PROJECT_DIR would send
	// the hooks to that session's project instead of the benchmark's.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") })
	return append(env, "MEMKEEP_NO_SPAWN=1")
}

// BenchmarkStopInProcess runs the Stop handler in-process after one new
// turn at the end of a 20 MB transcript, for profiling (-cpuprofile); the
// whole-process figure is BenchmarkHookStopTail.
//
// The Inline runs do everything in the hook (MEMKEEP_NO_SPAWN); the
// Foreground runs time what the turn waits for when Settle, the recall
// index and the commit go to the background process (SettleLater), whose
// work is then not timed.
func BenchmarkStopInProcess(b *testing.B) {
	for _, mb := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("Inline%dMB", mb), func(b *testing.B) { stopInProcess(b, mb, hookDeps()) })
	}
	for _, mb := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("Foreground%dMB", mb), func(b *testing.B) {
			deps := hookDeps()
			deps.Memory = settledLater{b: b}
			stopInProcess(b, mb, deps)
		})
	}
}

// settledLater is the hook's memory whose background run happens at once,
// with the timer stopped.
type settledLater struct {
	memoryAdapter
	b *testing.B
}

func (m settledLater) SettleLater(l memdir.Layout, sid string) error {
	m.b.StopTimer()
	defer m.b.StartTimer()
	cfg, _ := config.Load(l.ConfigFile())
	return settleInBackground(l, sid, cfg)
}

func (settledLater) Background() bool { return true }

// stopInProcess times Stop after one new turn at the end of a session of
// mb megabytes: the cost per turn must not grow with the session.
func stopInProcess(b *testing.B, mb int, deps hooks.Deps) {
	dir := benchProject(b)
	transcript := filepath.Join(b.TempDir(), "session.jsonl")
	if err := os.WriteFile(transcript, fixtures.Large(mb<<20).Data, 0o644); err != nil {
		b.Fatal(err)
	}
	in := hookPayload(b, map[string]any{
		"session_id": "77777777-aaaa-4bbb-8ccc-000000000077", "cwd": dir, "hook_event_name": "Stop",
		"transcript_path": transcript, "last_assistant_message": "Validation tightened; tests pass.",
	})
	os.Setenv("MEMKEEP_NO_SPAWN", "1")
	var out bytes.Buffer
	hooks.Run("Stop", bytes.NewReader(in), &out, hookDeps())
	f, _ := os.OpenFile(transcript, os.O_APPEND|os.O_WRONLY, 0)
	turn := fixtures.Large(1).Data
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Write(turn) // one new turn each time
		out.Reset()
		hooks.Run("Stop", bytes.NewReader(in), &out, deps)
	}
	f.Close()
}

// bigMemory writes a memory of n L2 exchanges over n/50 sessions, with a
// concept per 100 exchanges and 40 rules: the SessionStart measurement's
// "10,000 L2 items in memory".
func bigMemory(tb testing.TB, dir string, n int) {
	tb.Helper()
	l, err := memdir.Find(dir)
	if err != nil {
		tb.Fatal(err)
	}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	areas := []string{"auth", "billing", "cart", "search", "upload", "deploy", "api", "ui"}
	concepts := &l3.File{SchemaVersion: 1}
	for c := 0; c < n/100; c++ {
		area := areas[c%len(areas)]
		concepts.Concepts = append(concepts.Concepts, l3.Concept{
			ID: fmt.Sprintf("c-%08x", c), Name: fmt.Sprintf("%s-%d", area, c), Summary: "Work on the " + area + " module",
			Files: []string{area + "/" + area + ".go"}, Keywords: []string{area, "handler"}, Updated: start.Format(time.RFC3339),
		})
	}
	for s := 0; s < n/50; s++ {
		t := start.Add(time.Duration(s) * time.Hour)
		sid := fmt.Sprintf("%08x-0000-4000-8000-000000000000", s)
		base := memdir.SessionBase(t, sid)
		f := &l2.File{SchemaVersion: 1, SessionID: sid, L1: base + ".l1.jsonl"}
		for x := 0; x < 50; x++ {
			i := s*50 + x
			area := areas[i%len(areas)]
			f.Exchanges = append(f.Exchanges, l2.Exchange{
				ID: fmt.Sprintf("x-%08x", i), Summary: fmt.Sprintf("Fix the %s handler edge case %d", area, i),
				Details: "Read the handler, ran the tests, fixed the nil check and reran the tests.",
				Files:   []string{area + "/" + area + ".go"}, Keywords: []string{area, "handler", "nil"},
				L1Range: [2]int{x*10 + 1, x*10 + 10}, Source: "subconscious", Significance: 0.6, Type: "iteration",
				Tags: []string{}, TTLDays: 30, Expires: t.AddDate(0, 1, 0).Format("2006-01-02"),
				Concept: fmt.Sprintf("c-%08x", i/100), Links: []string{}, Created: t.Format(time.RFC3339), Updated: t.Format(time.RFC3339),
			})
		}
		if err := f.Save(l.L2File(base)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := concepts.Save(l.ConceptsFile()); err != nil {
		tb.Fatal(err)
	}
	facts := &l4.Facts{SchemaVersion: 1}
	for r := 0; r < 40; r++ {
		facts.Rules = append(facts.Rules, l4.Rule{ID: fmt.Sprintf("r-%08x", r), Text: fmt.Sprintf("Always run the %s checks before committing.", areas[r%len(areas)]), Source: "user", Confidence: 0.9, Updated: start.Format(time.RFC3339)})
	}
	if err := facts.Save(l.FactsFile()); err != nil {
		tb.Fatal(err)
	}
}

// bigMemoryHook is a run of memkeep's hook for event in a project with
// 10,000 L2 items; a non-empty cache (a file under the git dir's memkeep
// folder) is removed before each run, so that the run starts cold.
func bigMemoryHook(b *testing.B, event string, fields map[string]any, cache string) (proctime.Run, string) {
	bin := memkeepBinary(b)
	dir := benchProject(b)
	bigMemory(b, dir, 10000)
	in := map[string]any{"cwd": dir, "hook_event_name": event}
	for k, v := range fields {
		in[k] = v
	}
	run := proctime.Run{Path: bin, Args: []string{"hook", event}, Dir: dir, Stdin: hookPayload(b, in), Env: benchEnv()}
	if cache != "" {
		p := filepath.Join(dir, ".git", "memkeep", cache)
		run.Before = func() error {
			if err := os.RemoveAll(p); err != nil {
				return err
			}
			return nil
		}
	}
	return run, dir
}

var (
	sessionStartFields = map[string]any{"session_id": "bench-start", "source": "startup"}
	promptFields       = map[string]any{"session_id": "bench-prompt",
		"prompt": "The upload handler returns 500 when the file is empty; fix the nil check in upload/upload.go and add a test."}
)

// BenchmarkHookSessionStart is SessionStart with 10,000 L2 items in memory.
func BenchmarkHookSessionStart(b *testing.B) {
	run, dir := bigMemoryHook(b, "SessionStart", sessionStartFields, "")
	ctxCmd := exec.Command(run.Path, "context")
	ctxCmd.Dir = dir
	if out, err := ctxCmd.Output(); err != nil || len(out) < 1000 {
		b.Fatalf("memkeep context on the big memory: %v, %d bytes", err, len(out))
	}
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, "SessionStart (10,000 L2 items)", run, 40)
	}
}

// BenchmarkHookSessionStartCold is SessionStart right after the memory
// changed (a pull, a merge) and before anything warmed the context cache:
// the context is computed, from the newest sessions' L2 files.
func BenchmarkHookSessionStartCold(b *testing.B) {
	run, _ := bigMemoryHook(b, "SessionStart", sessionStartFields, "context-cache.json")
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, "SessionStart, cache cold (10,000 L2 items)", run, 10)
	}
}

// BenchmarkHookUserPromptSubmit is a prompt with 10,000 L2 items in
// memory: the recall that runs on every prompt.
func BenchmarkHookUserPromptSubmit(b *testing.B) {
	run, _ := bigMemoryHook(b, "UserPromptSubmit", promptFields, "")
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, "UserPromptSubmit (10,000 L2 items)", run, 20)
	}
}

// BenchmarkHookUserPromptSubmitCold is a prompt with no recall index (the
// first after a pull that changed many memory files): every L2 file is
// read and the index built again, the work every prompt did before there
// was an index.
func BenchmarkHookUserPromptSubmitCold(b *testing.B) {
	run, _ := bigMemoryHook(b, "UserPromptSubmit", promptFields, "recall")
	for i := 0; i < b.N; i++ {
		reportVsFloor(b, "UserPromptSubmit, no recall index (10,000 L2 items)", run, 10)
	}
}
