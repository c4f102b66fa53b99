package l2

import (
	"path"
	"slices"
	"strings"

	"github.com/memkeep/memkeep/layers/l1"
)

// maxRepairs is how many repair steps a fix names: the last ones before
// the command that passed.
const maxRepairs = 2

// maxRepairCmd is the longest repair step a fix shows whole.
const maxRepairCmd = 60

// repairSteps are the commands run after a failure, before the attempt
// that passed, that changed something the retry depended on: a formatter
// ("mix format"), an install ("mix deps.get"), a file removed or moved, a
// change to git's index or branches ("git add -f priv/static/app.css").
// Without them a fix reads as a plain retry of the command that failed.
// Looking around (git status, grep) and checking (a test run, a compile)
// change nothing and are left out, as are steps that failed.
func repairSteps(steps []l1.Record) []string {
	var out []string
	for _, r := range steps {
		if r.Tool != "Bash" || !ok(r) {
			continue
		}
		for _, f := range commandParts(r.Cmd) {
			if !repairs(f) {
				continue
			}
			step := Truncate(strings.Join(slices.DeleteFunc(f, func(w string) bool { return w == "2>&1" }), " "), maxRepairCmd)
			if i := slices.Index(out, step); i >= 0 {
				out = slices.Delete(out, i, i+1) // told where it ran last
			}
			out = append(out, step)
		}
	}
	return out[max(0, len(out)-maxRepairs):]
}

// repairs reports whether a command (its fields) changes the project or
// its environment in the way a fix does. Known programs only: a
// project's own tools ("bd update") say nothing memkeep can judge.
func repairs(f []string) bool {
	for len(f) > 1 && wrappers[f[0]] {
		f = f[1:]
	}
	if len(f) > 2 && f[1] == "-m" {
		f = f[2:] // python -m pip install
	}
	prog := path.Base(f[0])
	for _, w := range f[1:] {
		if checkFlags[w] {
			return false
		}
	}
	if fileTools[prog] || formatters[prog] {
		return true
	}
	if len(f) < 2 {
		return false
	}
	verb := f[1]
	if (verb == "run" || verb == "mod" || verb == "exec") && len(f) > 2 {
		verb = f[2] // npm run format, go mod tidy
	}
	switch {
	case prog == "git":
		return gitRepairs[verb] && !slices.ContainsFunc(f[2:], func(w string) bool { return gitLooks[w] })
	case prog == "sed":
		return slices.Contains(f[1:], "-i")
	case verb == "format" || verb == "fmt":
		return true
	case toolchains[prog]:
		return installVerbs[verb] || slices.Contains(f[1:], "--fix") || slices.Contains(f[1:], "--write")
	}
	return slices.Contains(f[1:], "--fix") || slices.Contains(f[1:], "--write")
}

var (
	// wrappers run the command that follows them.
	wrappers = map[string]bool{"sudo": true, "npx": true, "bunx": true, "pnpx": true, "uvx": true, "command": true, "env": true, "time": true}
	// checkFlags turn a formatter or an install into a check.
	checkFlags = map[string]bool{"--check": true, "--check-formatted": true, "--dry-run": true, "-n": true, "--diff": true, "-l": true, "--list": true}
	fileTools  = map[string]bool{"rm": true, "mv": true, "cp": true, "mkdir": true, "touch": true, "chmod": true, "chown": true, "ln": true,
		"kill": true, "pkill": true, "killall": true, "patch": true}
	formatters = map[string]bool{"gofmt": true, "goimports": true, "prettier": true, "black": true, "isort": true, "rustfmt": true,
		"autopep8": true, "clang-format": true, "shfmt": true, "stylua": true}
	gitRepairs = map[string]bool{"add": true, "rm": true, "mv": true, "checkout": true, "switch": true, "restore": true, "stash": true,
		"reset": true, "pull": true, "fetch": true, "rebase": true, "merge": true, "config": true, "cherry-pick": true, "revert": true,
		"submodule": true, "init": true, "remote": true}
	// gitLooks make a git subcommand that can change things only look.
	gitLooks = map[string]bool{"list": true, "show": true, "-v": true, "--get": true, "--get-all": true, "--list": true}
	// toolchains are the package managers and build tools whose install,
	// update and migration verbs are fixes.
	toolchains = map[string]bool{"npm": true, "yarn": true, "pnpm": true, "bun": true, "pip": true, "pip3": true, "uv": true,
		"poetry": true, "pipenv": true, "cargo": true, "go": true, "mix": true, "gem": true, "bundle": true, "composer": true,
		"apt": true, "apt-get": true, "brew": true, "dnf": true, "yum": true, "apk": true, "rails": true, "rake": true,
		"dotnet": true, "gradle": true, "mvn": true, "make": true, "deno": true, "python": true, "python3": true}
	installVerbs = map[string]bool{"install": true, "ci": true, "add": true, "get": true, "tidy": true, "download": true,
		"vendor": true, "update": true, "upgrade": true, "sync": true, "remove": true, "uninstall": true, "clean": true,
		"deps.get": true, "deps.update": true, "deps.unlock": true, "deps.clean": true, "deps.compile": true,
		"migrate": true, "db:migrate": true, "db:setup": true, "db:create": true,
		"ecto.migrate": true, "ecto.rollback": true, "ecto.reset": true, "ecto.setup": true, "ecto.create": true}
)
