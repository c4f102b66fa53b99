package hooks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const otherTools = `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "hooks": {
    "PostToolUse": [
      {"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}
    ],
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send done"}]}
    ]
  },
  "model": "opus"
}
`

func TestInstallMergesAndIsIdempotent(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte(otherTools), 0o644)
	prog := "/opt/my tools/memkeep"
	res, err := Install(p, prog)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Added) != len(Events) {
		t.Fatalf("added %v, want every event", res.Added)
	}
	once, _ := os.ReadFile(p)
	var s map[string]any
	if err := json.Unmarshal(once, &s); err != nil {
		t.Fatalf("settings no longer JSON: %v\n%s", err, once)
	}
	for _, keep := range []string{`"Bash(go test:*)"`, `"prettier --write"`, `"notify-send done"`, `"model": "opus"`} {
		if !strings.Contains(string(once), keep) {
			t.Errorf("lost %s:\n%s", keep, once)
		}
	}
	// Keys keep their order: permissions, hooks, model.
	if i, j, k := strings.Index(string(once), `"permissions"`), strings.Index(string(once), `"hooks"`), strings.Index(string(once), `"model"`); !(i < j && j < k) {
		t.Errorf("key order changed:\n%s", once)
	}
	if !strings.Contains(string(once), `"'/opt/my tools/memkeep' hook Stop"`) {
		t.Errorf("program path not quoted for the shell:\n%s", once)
	}
	res, err = Install(p, prog)
	if err != nil || len(res.Added) != 0 {
		t.Fatalf("second install changed %v (%v)", res.Added, err)
	}
	twice, _ := os.ReadFile(p)
	if string(once) != string(twice) {
		t.Fatal("installing twice changed the file")
	}
	evs, err := Installed(p)
	if err != nil || len(evs) != len(Events) {
		t.Fatalf("Installed: %v %v", evs, err)
	}

	// Uninstall removes exactly what was added.
	res, err = Uninstall(p)
	if err != nil || len(res.Removed) != len(Events) {
		t.Fatalf("removed %v (%v)", res.Removed, err)
	}
	after, _ := os.ReadFile(p)
	var want, got any
	json.Unmarshal([]byte(otherTools), &want)
	json.Unmarshal(after, &got)
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if string(wb) != string(gb) {
		t.Fatalf("uninstall left a different file:\n%s", after)
	}
}

// TestInstallCreatesFileAndUninstallRemovesIt: a settings file that held
// nothing but memkeep's hooks is removed with them, not left as "{}".
func TestInstallCreatesFileAndUninstallRemovesIt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.local.json")
	if _, err := Install(p, "memkeep"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"command": "memkeep hook PostToolUse"`) || !strings.Contains(string(b), `"matcher": "*"`) {
		t.Fatalf("unexpected settings:\n%s", b)
	}
	if _, err := Uninstall(p); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err == nil {
		t.Fatalf("the settings file memkeep alone filled is still there:\n%s", b)
	}
}

func TestInstallRefusesBrokenSettings(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(p, []byte(`{"hooks": [}`), 0o644)
	if _, err := Install(p, "memkeep"); err == nil || !strings.Contains(err.Error(), "settings.json") {
		t.Fatalf("want an error naming the file, got %v", err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != `{"hooks": [}` {
		t.Fatal("a broken settings file was rewritten")
	}
}

// TestCommandSurvivesTheShell runs the quoted command through sh, as Claude
// Code does, with a program path full of spaces and quotes.
func TestCommandSurvivesTheShell(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's a dir", "with spaces")
	os.MkdirAll(dir, 0o755)
	prog := filepath.Join(dir, "memkeep")
	os.WriteFile(prog, []byte("#!/bin/sh\necho \"$1 $2\"\n"), 0o755)
	out, err := exec.Command("sh", "-c", Command(prog, "Stop")).Output()
	if err != nil || strings.TrimSpace(string(out)) != "hook Stop" {
		t.Fatalf("got %q, %v", out, err)
	}
	if !isOurs(Command(prog, "Stop"), "Stop") {
		t.Fatal("our own command not recognised")
	}
}

// fakeProgram writes an executable file named memkeep under dir.
func fakeProgram(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "memkeep")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInstallRepairsAMovedProgram: hooks naming a memkeep that no longer
// exists are pointed at the one installing; hooks that work are left.
func TestInstallRepairsAMovedProgram(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "settings.json")
	os.WriteFile(p, []byte(otherTools), 0o644)
	old := fakeProgram(t, filepath.Join(tmp, "old dir"))
	if _, err := Install(p, old); err != nil {
		t.Fatal(err)
	}
	now := fakeProgram(t, filepath.Join(tmp, "new"))
	if res, err := Install(p, now); err != nil || len(res.Repaired)+len(res.Added) != 0 {
		t.Fatalf("working hooks were changed: %+v %v", res, err)
	}
	os.RemoveAll(filepath.Join(tmp, "old dir"))
	res, err := Install(p, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Repaired) != len(Events) || len(res.Added) != 0 {
		t.Fatalf("repaired %v, added %v; want every event repaired", res.Repaired, res.Added)
	}
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "old dir") || strings.Count(string(b), Command(now, "Stop")) != 1 {
		t.Errorf("hooks not pointed at the new program:\n%s", b)
	}
	for _, other := range []string{"prettier --write", "notify-send done", `"model": "opus"`} {
		if !strings.Contains(string(b), other) {
			t.Errorf("lost %q:\n%s", other, b)
		}
	}
	if res, _ := Install(p, now); len(res.Repaired)+len(res.Added) != 0 {
		t.Errorf("a third install changed %+v", res)
	}
}

// TestInstallKeepsPermissionsAndLinks: a private settings file stays
// private, and a link stays a link to the file that is edited.
func TestInstallKeepsPermissionsAndLinks(t *testing.T) {
	tmp := t.TempDir()
	target := filepath.Join(tmp, "dotfiles", "settings.local.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	if err := os.WriteFile(target, []byte(`{"env": {"ANTHROPIC_API_KEY": "x"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "project", ".claude", "settings.local.json")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(link, "/opt/memkeep"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	fi, err := os.Stat(target)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("target mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "hook Stop") || !strings.Contains(string(b), "ANTHROPIC_API_KEY") {
		t.Errorf("target not edited as expected:\n%s", b)
	}
}

// TestInstallLeavesCommandsItCannotJudge: a hook naming memkeep by PATH or
// through shell syntax may run elsewhere (a teammate's machine, Claude
// Code's environment); init never rewrites it.
func TestInstallLeavesCommandsItCannotJudge(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "settings.json")
	var groups []string
	commands := map[string]string{
		"Stop":         `"$CLAUDE_PROJECT_DIR"/tools/memkeep hook Stop`,
		"SessionStart": `~/bin/memkeep hook SessionStart`,
		"PreCompact":   `memkeep hook PreCompact`,
		"SessionEnd":   `/opt/$TOOLS/memkeep hook SessionEnd`,
	}
	for ev, c := range commands {
		b, _ := json.Marshal(c)
		groups = append(groups, `"`+ev+`": [{"hooks": [{"type": "command", "command": `+string(b)+`}]}]`)
	}
	os.WriteFile(p, []byte(`{"hooks": {`+strings.Join(groups, ", ")+`}}`), 0o644)
	t.Setenv("PATH", t.TempDir()) // no memkeep on PATH here
	res, err := Install(p, fakeProgram(t, filepath.Join(tmp, "bin")))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Repaired) != 0 {
		t.Errorf("repaired %v", res.Repaired)
	}
	b, _ := os.ReadFile(p)
	for _, c := range commands {
		cb, _ := json.Marshal(c)
		if !strings.Contains(string(b), string(cb)) {
			t.Errorf("%s was rewritten:\n%s", c, b)
		}
	}
}

// TestRepairKeepsTheEntry: a repaired hook keeps its other members, and
// another tool's entry in the same group keeps all of its own.
func TestRepairKeepsTheEntry(t *testing.T) {
	tmp := t.TempDir()
	p := filepath.Join(tmp, "settings.json")
	os.WriteFile(p, []byte(`{"hooks": {"Stop": [{"hooks": [
		{"type": "command", "command": "/nowhere/memkeep hook Stop", "timeout": 30, "statusMessage": "memory"},
		{"type": "command", "command": "notify-send done", "async": true}
	]}]}}`), 0o644)
	now := fakeProgram(t, filepath.Join(tmp, "bin"))
	res, err := Install(p, now)
	if err != nil || len(res.Repaired) != 1 {
		t.Fatalf("%+v %v, want Stop repaired", res, err)
	}
	b, _ := os.ReadFile(p)
	for _, want := range []string{`"statusMessage": "memory"`, `"async": true`, `"timeout": 30`, Command(now, "Stop")} {
		if !strings.Contains(string(b), want) {
			t.Errorf("lost %s:\n%s", want, b)
		}
	}
	if _, err := Uninstall(p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), `"async": true`) || strings.Contains(string(b), "hook Stop") {
		t.Errorf("uninstall:\n%s", b)
	}
}
