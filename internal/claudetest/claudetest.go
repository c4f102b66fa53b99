// Package claudetest runs the real Claude Code binary fully offline, for
// end-to-end tests of Claude Code hooks.
//
// Claude Code is pointed (ANTHROPIC_BASE_URL) at a scripted Messages API
// server on 127.0.0.1 that plays the model from a Script: it asks for the
// tool calls the scenario wants, Claude Code executes them for real in a
// throwaway git repository, fires the project's hooks with real payloads
// and writes a real transcript. Tests then assert on the files, on git and
// on the requests the server received (which is where hook context shows
// up: what the model would have seen).
//
// The package knows nothing about memkeep so any hook implementation can
// be tested with it. Typical use:
//
//	bin := claudetest.Require(t)
//	h := claudetest.New(t, bin, script)
//	h.InstallHooks(func(ev string) string { return hookCmd + " " + ev }, claudetest.AllHookEvents...)
//	// (or run the installer under test in h.Dir)
//	res, err := h.Run(ctx, "edit the readme")
//	// assert on res, h.Server.Requests(), files under h.Dir
//
// The binary comes from MEMKEEP_CLAUDE_BIN, the cache folder that
// .ci/install-claude.sh fills, or PATH. Without one, Require skips the
// test with a message saying how to get it, unless MEMKEEP_REQUIRE_CLAUDE
// is set (CI), in which case it fails.
package claudetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Version is the Claude Code version the harness is written against and
// that .ci/install-claude.sh installs. Payload shapes and where hook
// output lands in requests were observed on this version.
const Version = "2.1.330"

// How Claude Code 2.1.330 shows hook output to the model, as observed
// with this package's tests (which fail if a new version changes it):
//
//   - SessionStart additionalContext: a role "system" message whose text
//     starts with SessionStartContextLabel; on a fresh session it heads the
//     system message that also carries the environment block (message 1,
//     after the first user message); on --resume the old one stays in place
//     and the new one is a separate system message after the new prompt.
//   - UserPromptSubmit additionalContext: UserPromptSubmitContextLabel plus
//     the text, inside that same system message.
//   - Stop {"decision":"block","reason":R}: a user message
//     StopFeedbackPrefix+R, followed by a system message
//     StopBlockingErrorLabel+`"<hook command>": `+R.
//   - Stop hookSpecificOutput.additionalContext C: a user message
//     "<system-reminder>\n"+StopContextLabel+C+"\n</system-reminder>", no
//     error label; the turn continues as with a block (stop_hook_active is
//     true on the next Stop).
//   - systemMessage: never sent to the model (the transcript records it as
//     a hook_system_message attachment).
const (
	SessionStartContextLabel     = "SessionStart hook additional context: "
	UserPromptSubmitContextLabel = "UserPromptSubmit hook additional context: "
	StopFeedbackPrefix           = "Stop hook feedback:\n"
	StopBlockingErrorLabel       = "Stop hook blocking error from command: "
	StopContextLabel             = "Stop hook additional context: "
)

// MaxConsecutiveStopBlocks is how many Stop blocks in a row Claude Code
// 2.1.330 feeds back to the model; it runs Stop once more after that and
// ends the turn whatever the hook answers (the run's result is then
// empty). A hook's own block budget must stay below it.
const MaxConsecutiveStopBlocks = 8

// SkipMessage is the reason given when tests skip for want of a binary.
const SkipMessage = "Claude Code binary not found; run .ci/install-claude.sh or set MEMKEEP_CLAUDE_BIN"

// FindClaude locates a Claude Code binary: $MEMKEEP_CLAUDE_BIN, then the
// install script's cache folder ($MEMKEEP_CLAUDE_DIR, or
// ~/.cache/memkeep/claude-<Version>), then "claude" on PATH. A path that
// is not an executable file does not count.
func FindClaude() (path string, ok bool) {
	if p := os.Getenv("MEMKEEP_CLAUDE_BIN"); p != "" {
		if isExecutable(p) {
			return p, true
		}
		// An explicit setting that points nowhere is a mistake worth
		// not papering over with some other binary.
		return "", false
	}
	for _, dir := range cacheDirs() {
		p := filepath.Join(dir, "claude")
		if isExecutable(p) {
			return p, true
		}
	}
	if p, err := exec.LookPath("claude"); err == nil {
		return p, true
	}
	return "", false
}

// cacheDirs mirrors the defaults of .ci/install-claude.sh.
func cacheDirs() []string {
	var dirs []string
	if d := os.Getenv("MEMKEEP_CLAUDE_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		dirs = append(dirs, filepath.Join(cache, "memkeep", "claude-"+Version))
	}
	return dirs
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// Require returns the Claude Code binary or ends the test: a visible skip
// normally, a failure when MEMKEEP_REQUIRE_CLAUDE is set (CI installs the
// binary, so its absence there is a bug, not a reason to skip). It also
// skips under -short, since every run starts a real Claude Code process.
func Require(t testing.TB) string {
	t.Helper()
	p, ok := FindClaude()
	if !ok {
		if os.Getenv("MEMKEEP_REQUIRE_CLAUDE") != "" {
			t.Fatal(SkipMessage + " (MEMKEEP_REQUIRE_CLAUDE is set)")
			return ""
		}
		t.Skip(SkipMessage)
		return ""
	}
	if testing.Short() {
		t.Skip("end-to-end test with the real Claude Code binary; skipped in -short mode")
	}
	return p
}
