package repo

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitConfigList is `git config --file path --includes --list -z` as
// entries; ok is false when git rejects the file.
func gitConfigList(t *testing.T, path string) ([]configEntry, bool) {
	t.Helper()
	cmd := exec.Command("git", "config", "--file", path, "--includes", "--list", "-z")
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	var ents []configEntry
	for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if rec == "" {
			continue
		}
		name, value, has := strings.Cut(rec, "\n")
		ents = append(ents, configEntry{name: name, value: value, noValue: !has})
	}
	return ents, true
}

// gitConfigGet runs `git config --file path [--type=bool] --get name`.
func gitConfigGet(path, name string, asBool bool) (string, bool) {
	args := []string{"config", "--file", path, "--includes"}
	if asBool {
		args = append(args, "--type=bool")
	}
	out, err := exec.Command("git", append(args, "--get", name)...).Output()
	return strings.TrimSuffix(string(out), "\n"), err == nil
}

const trickyConfig = "\ufeff; a comment\n" +
	"# another\n" +
	"[core]\n" +
	"\tbare = false\n" +
	"\tFileMode = true ; trailing comment\n" +
	"\texcludesFile = \"~/my ignores\" # comment\n" +
	"    logAllRefUpdates=false\n" +
	"[user]\n" +
	"\tname = \"  Spaced \\\"Name\\\"  \"\n" +
	"\temail = a@b.example ; c\n" +
	"[Section \"Sub Section\"]\n" +
	"\tkey = value with   inner   spaces   \n" +
	"\tMulti = first \\\n" +
	"second \\\n" +
	"  third\n" +
	"\tquoted = \"a;b#c\" d \" e \"\n" +
	"\tesc = tab\\there\\nnew\\\\back\\\"q\\bz\n" +
	"\tbare\n" +
	"\tempty =\n" +
	"\tnum = 0\n" +
	"\ton = On\n" +
	"\tk-2 = dash\n" +
	"[section.Dotted]\n" +
	"\tk = v\n" +
	"[a \"b\\\"c\\\\d\\x\"]\n" +
	"\tx = 1\n" +
	"[core] autocrlf = input\n" +
	"[crlf]\r\n" +
	"\tkey = value \r\n" +
	"\tnext = \"quoted\"\r\n" +
	"[include]\n" +
	"\tpath = inc.cfg\n" +
	"\tpath = missing.cfg\n" +
	"[user]\n" +
	"\temail = after@include\n" +
	"[empty]\n" +
	"[last]\n" +
	"\tnoNewline = yes"

const includedConfig = "[user]\n\tname = Included\n\temail = inc@x\n[include]\n\tpath = sub/nested.cfg\n"
const nestedConfig = "[user]\n\tsigningKey = nested\n[core]\n\tfsync = committed,index\n"

// TestConfigMatchesGit parses tricky files and compares every variable
// with `git config --list`, and lookups with `git config --get`.
func TestConfigMatchesGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	os.WriteFile(path, []byte(trickyConfig), 0o644)
	os.WriteFile(filepath.Join(dir, "inc.cfg"), []byte(includedConfig), 0o644)
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "nested.cfg"), []byte(nestedConfig), 0o644)

	want, ok := gitConfigList(t, path)
	if !ok {
		t.Fatal("git rejects the test config")
	}
	got, err := readConfigFile(path, 0, &conditions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("%d variables, git lists %d", len(got), len(want))
	}
	for i := 0; i < len(got) && i < len(want); i++ {
		if got[i] != want[i] {
			t.Errorf("variable %d: got %+v, git %+v", i, got[i], want[i])
		}
	}

	c := &Config{entries: got}
	for _, q := range []struct{ section, sub, key string }{
		{"core", "", "bare"}, {"CORE", "", "filemode"}, {"core", "", "excludesfile"},
		{"core", "", "logallrefupdates"}, {"core", "", "autocrlf"}, {"core", "", "fsync"},
		{"user", "", "name"}, {"user", "", "email"}, {"user", "", "signingkey"},
		{"section", "Sub Section", "key"}, {"section", "Sub Section", "multi"},
		{"section", "Sub Section", "quoted"}, {"section", "Sub Section", "esc"},
		{"section", "Sub Section", "bare"}, {"section", "Sub Section", "empty"},
		{"section", "Sub Section", "k-2"}, {"section", "sub section", "key"},
		{"section", "dotted", "k"}, {"a", "b\"c\\dx", "x"}, {"crlf", "", "key"}, {"crlf", "", "next"},
		{"last", "", "nonewline"}, {"nosuch", "", "key"},
	} {
		name := q.section + "." + q.key
		if q.sub != "" {
			name = q.section + "." + q.sub + "." + q.key
		}
		wv, wok := gitConfigGet(path, name, false)
		gv, gok := c.Get(q.section, q.sub, q.key)
		if wok != gok || wv != gv {
			t.Errorf("Get %s: %q %v, git %q %v", name, gv, gok, wv, wok)
		}
	}
	for _, q := range []struct{ section, key string }{
		{"core", "bare"}, {"core", "filemode"}, {"core", "logallrefupdates"},
		{"last", "nonewline"}, {"nosuch", "key"},
	} {
		wv, wok := gitConfigGet(path, q.section+"."+q.key, true)
		for _, def := range []bool{false, true} {
			want := def
			if wok {
				want = wv == "true"
			}
			if got := c.Bool(q.section, q.key, def); got != want {
				t.Errorf("Bool %s.%s (default %v): %v, git %q", q.section, q.key, def, got, wv)
			}
		}
	}
	if i, r := c.Fsync(); !i || !r {
		t.Errorf("core.fsync from the nested include: %v %v", i, r)
	}
}

// TestConfigBoolsLikeGit checks boolean spellings, a bare key and an empty
// value against `git config --type=bool`.
func TestConfigBoolsLikeGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	vals := []string{"true", "TRUE", "yes", "On", "1", "false", "No", "off", "0", "", "2", "-1", "10k", "0k", "maybe", "\"true\""}
	var b bytes.Buffer
	b.WriteString("[b]\n\tbare\n")
	for i, v := range vals {
		b.WriteString("\tk" + string(rune('a'+i)) + " = " + v + "\n")
	}
	os.WriteFile(path, b.Bytes(), 0o644)
	ents, err := readConfigFile(path, 0, &conditions{})
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{entries: ents}
	keys := []string{"bare"}
	for i := range vals {
		keys = append(keys, "k"+string(rune('a'+i)))
	}
	for _, k := range keys {
		wv, wok := gitConfigGet(path, "b."+k, true)
		for _, def := range []bool{false, true} {
			want := def
			if wok {
				want = wv == "true"
			}
			if got := c.Bool("b", k, def); got != want {
				t.Errorf("b.%s (default %v): %v, git %q %v", k, def, got, wv, wok)
			}
		}
	}
}

// TestConfigRejectsLikeGit feeds files git refuses; the parser refuses
// them too, and a refused layer is skipped as a whole.
func TestConfigRejectsLikeGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	for _, text := range []string{
		"[core]\n\tbare = \"unterminated\n",
		"[core]\n\tbad\\q = 1\n",
		"[core]\n\tv = a\\q\n",
		"[core\n\tbare = true\n",
		"[core \"sub]\n",
		"[core \"sub\" ]\n",
		"[co_re]\n",
		"[core]\n\t1key = x\n",
		"[core]\n\tkey x\n",
		"key = value\n",
		"[]\n",
		"[core]\n\tkey_x = 1\n",
		// accepted by git:
		"[core]\n\tkey = a \\\n\n",
		"[core]\n\t\n\t  # only a comment\n",
		"[core \"\"]\n\tk = v\n",
		"[core] ; comment\n\tk = v\n",
	} {
		os.WriteFile(path, []byte(text), 0o644)
		want, ok := gitConfigList(t, path)
		got, err := parseConfig([]byte(text))
		if ok != (err == nil) {
			t.Errorf("%q: git accepts %v, we: %v", text, ok, err)
			continue
		}
		if ok && len(got) != len(want) {
			t.Errorf("%q: %+v, git %+v", text, got, want)
		}
		for i := 0; ok && i < len(got) && i < len(want); i++ {
			if got[i] != want[i] {
				t.Errorf("%q: %+v, git %+v", text, got[i], want[i])
			}
		}
	}
	// A broken global file does not hide the repository's config.
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(dir, "global"))
	os.WriteFile(filepath.Join(dir, "global"), []byte("[user]\n\tname = \"x\n"), 0o644)
	repoDir := filepath.Join(dir, "repo")
	os.MkdirAll(repoDir, 0o755)
	os.WriteFile(filepath.Join(repoDir, "config"), []byte("[user]\n\temail = r@x\n[extensions]\n\tworktreeConfig\n"), 0o644)
	os.WriteFile(filepath.Join(repoDir, "config.worktree"), []byte("[user]\n\tname = wt\n"), 0o644)
	c := LoadConfig(repoDir, repoDir)
	if v, _ := c.Get("user", "", "email"); v != "r@x" {
		t.Errorf("user.email %q", v)
	}
	if v, _ := c.Get("user", "", "name"); v != "wt" {
		t.Errorf("user.name from config.worktree: %q", v)
	}
}

// TestConfigIncludeIfLikeGit: identities set per folder or per branch with
// includeIf are the ones git commits with.
func TestConfigIncludeIfLikeGit(t *testing.T) {
	requireGit(t)
	gitEnv(t)
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		os.Unsetenv(k)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	work := filepath.Join(home, "work", "Project")
	other := filepath.Join(home, "play", "toy")
	for _, d := range []string{work, other} {
		if out, err := exec.Command("git", "init", "-q", "-b", "main", d).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	global := filepath.Join(home, ".gitconfig")
	os.WriteFile(global, []byte(`[user]
	name = Me
	email = me@personal.example
[includeIf "gitdir:~/work/"]
	path = work.gitconfig
[includeIf "gitdir/i:**/PLAY/**"]
	path = play.gitconfig
[includeIf "onbranch:release/"]
	path = release.gitconfig
[includeIf "gitdir:/nowhere/"]
	path = never.gitconfig
`), 0o644)
	os.WriteFile(filepath.Join(home, "work.gitconfig"), []byte("[user]\n\temail = me@work.example\n"), 0o644)
	os.WriteFile(filepath.Join(home, "play.gitconfig"), []byte("[user]\n\tname = Player\n"), 0o644)
	os.WriteFile(filepath.Join(home, "release.gitconfig"), []byte("[user]\n\temail = release@work.example\n"), 0o644)
	os.WriteFile(filepath.Join(home, "never.gitconfig"), []byte("[user]\n\tname = Never\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", global)

	check := func(dir string) {
		t.Helper()
		cmd := exec.Command("git", "var", "GIT_COMMITTER_IDENT")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		ident := string(out)
		want := ident[:strings.Index(ident, ">")+1]
		name, email := LoadConfig(filepath.Join(dir, ".git"), filepath.Join(dir, ".git")).Identity("committer")
		if got := name + " <" + email + ">"; got != want {
			t.Errorf("%s: memkeep commits as %q, git as %q", dir, got, want)
		}
	}
	check(work)
	check(other)
	if out, err := exec.Command("git", "-C", work, "symbolic-ref", "HEAD", "refs/heads/release/1.0").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	check(work)
	// A branch named by a symbolic ref: git matches the branch it ends at.
	for _, args := range [][]string{{"symbolic-ref", "refs/heads/alias", "refs/heads/release/2.0"}, {"symbolic-ref", "HEAD", "refs/heads/alias"}} {
		if out, err := exec.Command("git", append([]string{"-C", other}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	check(other)
	// "gitdir:…/" matches below the folder, not the folder itself, and
	// "onbranch:release/" no branch named just "release".
	os.WriteFile(global, []byte("[user]\n\tname = Me\n\temail = me@personal.example\n"+
		"[includeIf \"gitdir:"+filepath.Join(work, ".git")+"/\"]\n\tpath = never.gitconfig\n"+
		"[includeIf \"onbranch:release/\"]\n\tpath = never.gitconfig\n"), 0o644)
	if out, err := exec.Command("git", "-C", work, "symbolic-ref", "HEAD", "refs/heads/release").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	check(work)
}
