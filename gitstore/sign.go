package gitstore

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memkeep/memkeep/gitstore/internal/repo"
	"github.com/memkeep/memkeep/internal/extcmd"
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
		if key == "" {
			return nil, deferf("commit.gpgsign is set with gpg.format=ssh and no user.signingkey: memkeep does not ask ssh-agent for a default key (gpg.ssh.defaultKeyCommand); set user.signingkey, or commit the memory with `git commit`")
		}
		prog := configured(cfg, "ssh", "ssh-keygen")
		// A literal public key ("key::ssh-ed25519 …" or "ssh-ed25519 …")
		// signs through the agent that holds its private half, as git does.
		literal, isLiteral := strings.CutPrefix(key, "key::")
		isLiteral = isLiteral || strings.HasPrefix(key, "ssh-")
		if isLiteral && literal == "" {
			literal = key
		}
		return func(payload []byte) (string, error) {
			if isLiteral {
				return signSSHLiteral(prog, literal, payload)
			}
			return signSSH(prog, repo.ExpandHome(key), payload)
		}, nil
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

// SignTimeout bounds a signing program. gpg may wait for a passphrase
// prompt (pinentry) or a smartcard that never comes; a hook holding the
// commit for that long would stall Claude Code, so the commit is deferred
// with the reason instead.
const SignTimeout = 10 * time.Second

// signOpenPGP runs gpg as git does: a detached, armored signature of the
// payload by key, checked by the status line gpg writes on success.
func signOpenPGP(prog, key string, payload []byte) (string, error) {
	cmd := extcmd.Command(SignTimeout, prog, "--status-fd=2", "-bsau", key)
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
func signSSH(prog, keyFile string, payload []byte, extra ...string) (string, error) {
	dir, err := os.MkdirTemp("", "memkeep-sign-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	buf := filepath.Join(dir, "commit")
	if err := os.WriteFile(buf, payload, 0o600); err != nil {
		return "", err
	}
	args := append([]string{"-Y", "sign", "-n", "git", "-f", keyFile}, extra...)
	cmd := extcmd.Command(SignTimeout, prog, append(args, buf)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("commit.gpgsign is set and %s could not sign with %s: %v: %s", prog, keyFile, err, firstLines(stderr.String(), 3))
	}
	sig, err := os.ReadFile(buf + ".sig")
	return string(sig), err
}

// signSSHLiteral signs with the private half of a public key held by
// ssh-agent (-U), the key written to a file for ssh-keygen, as git does.
func signSSHLiteral(prog, pub string, payload []byte) (string, error) {
	f, err := os.CreateTemp("", "memkeep-signingkey-")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(strings.TrimSpace(pub) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return signSSH(prog, f.Name(), payload, "-U")
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
