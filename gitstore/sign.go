package gitstore

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
)

// Memory commits are signed as git signs commits when commit.gpgsign is
// set: a branch that only accepts signed commits must accept them too.
// The commit object without its signature is the payload; the signature
// goes into the gpgsig header.

// signer returns the function that signs a commit payload as git would with
// the repository's configuration, nil when commits are not signed, or a
// deferral for a configuration memkeep cannot sign with.
func signer(cfg *repo.Config, committer string) (func(payload []byte) (string, error), error) {
	if !cfg.Bool("commit", "gpgsign", false) {
		return nil, nil
	}
	key, _ := cfg.Get("user", "", "signingkey")
	format, _ := cfg.Get("gpg", "", "format")
	switch strings.ToLower(format) {
	case "", "openpgp":
		prog := configured(cfg, "openpgp", "gpg")
		if key == "" {
			key = committer // git's default: the committer's identity
		}
		return func(payload []byte) (string, error) { return signOpenPGP(prog, key, payload) }, nil
	case "ssh":
		if key == "" || strings.HasPrefix(key, "key::") || strings.HasPrefix(key, "ssh-") {
			return nil, deferf("commit.gpgsign is set with gpg.format=ssh and user.signingkey is not a key file: memkeep signs with ssh only from a key file; commit the memory with `git commit` or set user.signingkey to the key's path")
		}
		prog := configured(cfg, "ssh", "ssh-keygen")
		return func(payload []byte) (string, error) { return signSSH(prog, expandHome(key), payload) }, nil
	}
	return nil, deferf("commit.gpgsign is set with gpg.format=%s, which memkeep cannot sign with; commit the memory with `git commit`", format)
}

// configured is gpg.<format>.program, else gpg.program (openpgp only),
// else def.
func configured(cfg *repo.Config, format, def string) string {
	if p, ok := cfg.Get("gpg", format, "program"); ok && p != "" {
		return p
	}
	if format == "openpgp" {
		if p, ok := cfg.Get("gpg", "", "program"); ok && p != "" {
			return p
		}
	}
	return def
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// signOpenPGP runs gpg as git does: a detached, armored signature of the
// payload by key, checked by the status line gpg writes on success.
func signOpenPGP(prog, key string, payload []byte) (string, error) {
	cmd := exec.Command(prog, "--status-fd=2", "-bsau", key)
	cmd.Stdin = bytes.NewReader(payload)
	var out, status bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &status
	err := cmd.Run()
	if err != nil || !bytes.Contains(status.Bytes(), []byte("\n[GNUPG:] SIG_CREATED ")) && !bytes.HasPrefix(status.Bytes(), []byte("[GNUPG:] SIG_CREATED ")) {
		return "", fmt.Errorf("commit.gpgsign is set and %s could not sign with key %q: %v: %s", prog, key, err, firstLines(status.String(), 3))
	}
	return out.String(), nil
}

// signSSH runs ssh-keygen -Y sign as git does, with the git namespace.
func signSSH(prog, keyFile string, payload []byte) (string, error) {
	dir, err := os.MkdirTemp("", "memkeep-sign-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	buf := filepath.Join(dir, "commit")
	if err := os.WriteFile(buf, payload, 0o600); err != nil {
		return "", err
	}
	cmd := exec.Command(prog, "-Y", "sign", "-n", "git", "-f", keyFile, buf)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("commit.gpgsign is set and %s could not sign with %s: %v: %s", prog, keyFile, err, firstLines(stderr.String(), 3))
	}
	sig, err := os.ReadFile(buf + ".sig")
	return string(sig), err
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "; ")
}

// signCommit adds the gpgsig header git would add to c.
func signCommit(c *repo.Commit, sign func([]byte) (string, error)) error {
	sig, err := sign(repo.EncodeCommit(c))
	if err != nil {
		return err
	}
	c.ExtraHeaders = append(c.ExtraHeaders, repo.Header{Key: "gpgsig", Value: strings.TrimSuffix(sig, "\n")})
	return nil
}
