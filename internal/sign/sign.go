package sign

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Key names the key to sign with, the way git's user.signingkey does: a
// path to a private or public key file (`~/` expanded; a public key's
// private half is taken from ssh-agent), or `key::<public key>` for a key
// held only in the agent.
type Key string

// Signature is a made signature and the key that made it.
type Signature struct {
	Armored string
	Key     ssh.PublicKey
}

// Sign signs message with key through `ssh-keygen -Y sign -n gitwarrant`,
// so the agent, passphrase prompts and security-key touches work as they
// do for git. ssh-keygen talks to the person on the terminal and on
// stderr; the message goes through a private temporary file, never stdin,
// so a passphrase prompt cannot read the message.
func Sign(message []byte, key Key, stderr io.Writer) (*Signature, error) {
	if key == "" {
		return nil, fmt.Errorf("no signing key: set git's (git config gpg.format ssh; git config user.signingkey ~/.ssh/id_ed25519.pub) or pass --key PATH")
	}
	dir, err := os.MkdirTemp("", "gitwarrant-sign-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	args := []string{"-Y", "sign", "-n", Namespace, "-q"}
	if lit, ok := strings.CutPrefix(string(key), "key::"); ok {
		pub := filepath.Join(dir, "key.pub")
		if err := os.WriteFile(pub, []byte(lit+"\n"), 0o600); err != nil {
			return nil, err
		}
		args = append(args, "-U", "-f", pub)
	} else {
		path, err := expandHome(string(key))
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("signing key %s: %w — pass --key PATH, or fix git's user.signingkey", path, err)
		}
		args = append(args, "-f", path)
	}
	msg := filepath.Join(dir, "entry")
	if err := os.WriteFile(msg, message, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command("ssh-keygen", append(args, msg)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stderr, stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("ssh-keygen -Y sign failed (%v): nothing was signed — check the key, its passphrase or the agent (ssh-add -l)", err)
	}
	armored, err := os.ReadFile(msg + ".sig")
	if err != nil {
		return nil, fmt.Errorf("ssh-keygen wrote no signature: %w", err)
	}
	sig, err := sshsig.Unarmor(armored)
	if err != nil {
		return nil, fmt.Errorf("ssh-keygen wrote an unreadable signature: %w", err)
	}
	return &Signature{Armored: strings.TrimSpace(string(armored)), Key: sig.PublicKey}, nil
}

func expandHome(p string) (string, error) {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand %s: %w", p, err)
	}
	return filepath.Join(home, rest), nil
}

// ReadPublicKey reads one authorized_keys-style public key line (a .pub
// file).
func ReadPublicKey(data []byte) (ssh.PublicKey, string, error) {
	k, comment, _, _, err := ssh.ParseAuthorizedKey(data)
	if err != nil {
		return nil, "", fmt.Errorf("not an SSH public key (%v): give the .pub file, one line `ssh-ed25519 AAAA… comment`", err)
	}
	if _, isCert := k.(*ssh.Certificate); isCert {
		return nil, "", fmt.Errorf("a certificate is not a signer key: give the person's own public key")
	}
	return k, comment, nil
}

// PublicKey returns the public half of k without signing: the literal of a
// `key::` key, the key file itself when it is public, its `.pub` beside
// it, or else what `ssh-keygen -y` derives (which may ask the passphrase).
func (k Key) PublicKey() (ssh.PublicKey, error) {
	if lit, ok := strings.CutPrefix(string(k), "key::"); ok {
		pub, _, err := ReadPublicKey([]byte(lit))
		return pub, err
	}
	path, err := expandHome(string(k))
	if err != nil {
		return nil, err
	}
	for _, p := range []string{path, path + ".pub"} {
		if b, err := os.ReadFile(p); err == nil {
			if pub, _, err := ReadPublicKey(b); err == nil {
				return pub, nil
			}
		}
	}
	cmd := exec.Command("ssh-keygen", "-y", "-f", path)
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("cannot read the public key of %s (%v): pass --key with the key file", path, err)
	}
	pub, _, err := ReadPublicKey(out)
	return pub, err
}

// Principals returns the literal principals (no wildcard, no negation)
// that lines listing key name, in file order: who a key may sign as.
func (a *AllowedSigners) Principals(key ssh.PublicKey) []string {
	var out []string
	for _, s := range a.Signers {
		if !sameKey(s.Key, key) {
			continue
		}
		for _, p := range strings.Split(s.Principals, ",") {
			if p != "" && !strings.ContainsAny(p, "*?!") {
				out = append(out, p)
			}
		}
	}
	return out
}

// Fingerprint is the key's SHA256 fingerprint, as ssh-keygen -l shows it.
func Fingerprint(k ssh.PublicKey) string { return ssh.FingerprintSHA256(k) }
