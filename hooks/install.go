package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/memkeep/memkeep/internal/atomicfile"
	"github.com/memkeep/memkeep/internal/shellquote"
)

// hookTimeout is the seconds Claude Code gives a memkeep hook before it
// gives up on it (they normally take milliseconds).
func hookTimeout(event string) int {
	switch event {
	case "Stop", "SubagentStop":
		return 30
	case "PreCompact":
		return 60
	}
	return 10
}

// takesMatcher reports the events that take a tool matcher.
func takesMatcher(event string) bool { return event == "PostToolUse" }

// Command is the shell command Claude Code runs for event: the memkeep
// program, quoted so that a path with spaces survives the shell.
func Command(program, event string) string {
	return shellquote.Quote(program) + " hook " + event
}

// isOurs recognises a hook command memkeep wrote for event, whatever the
// program path was then: its program's base name is memkeep and it ends
// in "hook <Event>".
func isOurs(command, event string) bool {
	return strings.HasSuffix(strings.TrimSpace(command), " hook "+event) &&
		filepath.Base(programOf(command, event)) == "memkeep"
}

// Executable is this memkeep binary's absolute path, symbolic links
// resolved, and whether `memkeep` on PATH is this same binary (then hooks
// and shells can name it so).
func Executable() (exe string, onPath bool, err error) {
	if exe, err = os.Executable(); err != nil {
		return "", false, err
	}
	exe, _ = filepath.EvalSymlinks(exe)
	if p, err := exec.LookPath("memkeep"); err == nil {
		if rp, _ := filepath.EvalSymlinks(p); rp == exe {
			return exe, true, nil
		}
	}
	return exe, false, nil
}

// programOf is the program of a hook command memkeep wrote for event.
func programOf(command, event string) string {
	rest, _ := strings.CutSuffix(strings.TrimSpace(command), " hook "+event)
	return strings.Trim(strings.TrimSpace(rest), `'"`)
}

// gone reports a hook program that cannot run anywhere: a plain absolute
// path, as init writes it, to no executable file. A name looked up on
// PATH, or a command with shell syntax ($VAR, ~, quotes inside), may run
// where this process cannot tell, on a teammate's machine or in Claude
// Code's environment, and is never called gone.
func gone(program string) bool {
	if !filepath.IsAbs(program) || strings.ContainsAny(program, "$`\\\"'~*?[]{}()<>|&;") {
		return false
	}
	fi, err := os.Stat(program)
	return err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0
}

// runs reports whether program, which Install is about to write, can run.
func runs(program string) bool {
	if strings.ContainsRune(program, filepath.Separator) {
		return !gone(program)
	}
	_, err := exec.LookPath(program)
	return err == nil
}

// member is one key of a JSON object, kept in file order.
type member struct {
	Key string
	Val jsontext.Value
}

func decodeObject(b []byte) ([]member, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, nil
	}
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	tok, err := dec.ReadToken()
	if err != nil || tok.Kind() != '{' {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := k.String() // a token is only valid until the next read
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		ms = append(ms, member{key, append(jsontext.Value(nil), v...)})
	}
	return ms, nil
}

func encodeObject(ms []member) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(m.Key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(m.Val)
	}
	buf.WriteByte('}')
	v := jsontext.Value(buf.Bytes())
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return nil, err
	}
	return append(v, '\n'), nil
}

func get(ms []member, key string) (jsontext.Value, int) {
	for i, m := range ms {
		if m.Key == key {
			return m.Val, i
		}
	}
	return nil, -1
}

func set(ms []member, key string, v jsontext.Value) []member {
	if _, i := get(ms, key); i >= 0 {
		ms[i].Val = v
		return ms
	}
	return append(ms, member{key, v})
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type matcherGroup struct {
	Matcher *string     `json:"matcher,omitempty"`
	Hooks   []hookEntry `json:"hooks"`
}

// InstallResult says what Install or Uninstall changed.
type InstallResult struct {
	Path     string
	Added    []string // events whose hook was added
	Removed  []string // events whose hook was removed
	Repaired []string // events whose hook named a program that no longer runs
}

// Install merges memkeep's hooks into the Claude Code settings file at path
// (created when missing). Other keys, other tools' hooks and the order of
// everything are kept; running it twice changes nothing. A memkeep hook
// already there is kept as it is (a committed `memkeep` from PATH stays so)
// unless its program no longer runs (a binary moved or deleted): then it
// is pointed at program.
func Install(path, program string) (InstallResult, error) {
	return editHooks(path, false, func(event string, groups []json.RawMessage) ([]json.RawMessage, bool, error) {
		for gi, g := range groups {
			var mg matcherGroup
			if json.Unmarshal(g, &mg) != nil {
				continue
			}
			for hi, h := range mg.Hooks {
				if !isOurs(h.Command, event) {
					continue
				}
				if !gone(programOf(h.Command, event)) || !runs(program) {
					return groups, false, nil
				}
				// Repair the command, keeping the rest of the group and
				// of the entry as they were.
				ng, err := editEntries(g, func(entries []json.RawMessage) ([]json.RawMessage, error) {
					em, err := decodeObject(entries[hi])
					if err != nil {
						return nil, err
					}
					cb, _ := json.Marshal(Command(program, event))
					e, err := encodeObject(set(em, "command", cb))
					entries[hi] = bytes.TrimSpace(e)
					return entries, err
				})
				if err != nil {
					return nil, false, err
				}
				groups[gi] = ng
				return groups, true, nil
			}
		}
		mg := matcherGroup{Hooks: []hookEntry{{Type: "command", Command: Command(program, event), Timeout: hookTimeout(event)}}}
		if takesMatcher(event) {
			all := "*"
			mg.Matcher = &all
		}
		b, err := json.Marshal(mg)
		if err != nil {
			return nil, false, err
		}
		return append(groups, b), true, nil
	})
}

// editEntries rewrites the "hooks" list of a matcher group with edit,
// keeping the group's other members, and the entries edit keeps, as they
// were.
func editEntries(g json.RawMessage, edit func([]json.RawMessage) ([]json.RawMessage, error)) (json.RawMessage, error) {
	ms, err := decodeObject(g)
	if err != nil {
		return nil, err
	}
	hv, _ := get(ms, "hooks")
	var entries []json.RawMessage
	if err := json.Unmarshal(hv, &entries); err != nil {
		return nil, err
	}
	if entries, err = edit(entries); err != nil {
		return nil, err
	}
	hb, err := json.Marshal(entries)
	if err != nil {
		return nil, err
	}
	nb, err := encodeObject(set(ms, "hooks", hb))
	return bytes.TrimSpace(nb), err
}

// Uninstall removes exactly the hooks Install added, and the containers
// that held only them.
func Uninstall(path string) (InstallResult, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return InstallResult{Path: path}, nil
	}
	return editHooks(path, true, func(event string, groups []json.RawMessage) ([]json.RawMessage, bool, error) {
		var out []json.RawMessage
		changed := false
		for _, g := range groups {
			var mg matcherGroup
			if json.Unmarshal(g, &mg) != nil {
				out = append(out, g)
				continue
			}
			var keep []hookEntry
			for _, h := range mg.Hooks {
				if !isOurs(h.Command, event) {
					keep = append(keep, h)
				}
			}
			if len(keep) == len(mg.Hooks) {
				out = append(out, g)
				continue
			}
			changed = true
			if len(keep) == 0 {
				continue
			}
			// Another tool shares the group: rewrite it without memkeep,
			// keeping that tool's entries as they were.
			ng, err := editEntries(g, func(entries []json.RawMessage) ([]json.RawMessage, error) {
				var kept []json.RawMessage
				for i, e := range entries {
					if i >= len(mg.Hooks) || !isOurs(mg.Hooks[i].Command, event) {
						kept = append(kept, e)
					}
				}
				return kept, nil
			})
			if err != nil {
				return nil, false, err
			}
			out = append(out, ng)
		}
		return out, changed, nil
	})
}

// Installed lists the events whose memkeep hook is in the settings file.
func Installed(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Hooks map[string][]matcherGroup `json:"hooks"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var out []string
	for _, ev := range Events {
		for _, g := range s.Hooks[ev] {
			for _, h := range g.Hooks {
				if isOurs(h.Command, ev) {
					out = append(out, ev)
				}
			}
		}
	}
	return out, nil
}

func editHooks(path string, uninstall bool, edit func(event string, groups []json.RawMessage) ([]json.RawMessage, bool, error)) (InstallResult, error) {
	res := InstallResult{Path: path}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	root, err := decodeObject(old)
	if err != nil {
		return res, fmt.Errorf("%s is not a JSON object (%v): fix or move it, then run again", path, err)
	}
	hv, _ := get(root, "hooks")
	hooksObj, err := decodeObject(hv)
	if err != nil {
		return res, fmt.Errorf("%s: \"hooks\" is not an object (%v)", path, err)
	}
	for _, ev := range Events {
		var groups []json.RawMessage
		if v, _ := get(hooksObj, ev); v != nil {
			if err := json.Unmarshal(v, &groups); err != nil {
				return res, fmt.Errorf("%s: hooks.%s is not a list (%v)", path, ev, err)
			}
		}
		before := len(groups)
		groups, changed, err := edit(ev, groups)
		if err != nil {
			return res, err
		}
		if !changed {
			continue
		}
		switch {
		case len(groups) > before:
			res.Added = append(res.Added, ev)
		case uninstall:
			res.Removed = append(res.Removed, ev)
		default:
			res.Repaired = append(res.Repaired, ev)
		}
		if len(groups) == 0 {
			hooksObj = remove(hooksObj, ev)
			continue
		}
		gb, err := json.Marshal(groups)
		if err != nil {
			return res, err
		}
		hooksObj = set(hooksObj, ev, gb)
	}
	if len(res.Added) == 0 && len(res.Removed) == 0 && len(res.Repaired) == 0 {
		return res, nil
	}
	if len(hooksObj) == 0 {
		root = remove(root, "hooks")
		if uninstall && len(root) == 0 {
			// Nothing but memkeep's hooks was in it: the file was
			// memkeep's (init created it); leave no "{}" behind.
			return res, os.Remove(path)
		}
	} else {
		hb, err := encodeObject(hooksObj)
		if err != nil {
			return res, err
		}
		root = set(root, "hooks", bytes.TrimSpace(hb))
	}
	out, err := encodeObject(root)
	if err != nil {
		return res, err
	}
	// The file may hold keys (env) its owner keeps private, and may be a
	// link into a dotfiles repository: write the file it points to, with
	// the permissions it has.
	perm := os.FileMode(0o644)
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	return res, atomicfile.WriteFile(path, out, perm)
}

func remove(ms []member, key string) []member {
	if _, i := get(ms, key); i >= 0 {
		return append(ms[:i], ms[i+1:]...)
	}
	return ms
}
