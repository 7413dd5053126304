package amend

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

func keygen(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", p).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	b, _ := os.ReadFile(p + ".pub")
	return p, strings.TrimSpace(string(b))
}

// sshVerify is ssh-keygen's verdict on an entry, at the entry's time.
func sshVerify(t *testing.T, dir, allowed string, e chain.Entry) bool {
	t.Helper()
	msg, err := Message(e)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := FromEntry(e)
	os.WriteFile(filepath.Join(dir, "allowed"), []byte(allowed), 0o600)
	os.WriteFile(filepath.Join(dir, "e.sig"), []byte(a.Sig+"\n"), 0o600)
	ts, _ := time.Parse(chain.TSLayout, e.TS)
	cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", filepath.Join(dir, "allowed"), "-I", a.Signer, "-n", sign.Namespace,
		"-s", filepath.Join(dir, "e.sig"), "-Overify-time="+ts.UTC().Format("20060102150405")+"Z")
	cmd.Stdin = bytes.NewReader(msg)
	return cmd.Run() == nil
}

// appendSigned appends a signed amend to the chain at path, as the amend
// command does: signed under the lock at its own position.
func appendSigned(t *testing.T, path, chainName, key, signer string, now time.Time) chain.Entry {
	t.Helper()
	f := &chain.File{Path: path, Now: func() time.Time { return now }, Prepare: func(e chain.Entry) (chain.Entry, error) {
		msg, err := Message(e)
		if err != nil {
			return e, err
		}
		s, err := sign.Sign(msg, sign.Key(key), io.Discard)
		if err != nil {
			return e, err
		}
		e.Extra["sig"] = s.Armored
		return e, nil
	}}
	a := Amend{Loop: "deploy", List: "send", Op: OpAdd, Pattern: "push to release/*", Before: "sha256:aa", After: "sha256:bb", Signer: signer, Chain: chainName}
	e, err := f.Append(a.Entry())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAmendSignatureBindsEverything(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	ada, adaPub := keygen(t, dir, "ada")
	eve, _ := keygen(t, dir, "eve")
	ns, nsPub := keygen(t, dir, "ns")
	old, oldPub := keygen(t, dir, "old")
	allowed := "ada@example.com namespaces=\"gitwarrant\" " + adaPub + "\n" +
		"ns@example.com namespaces=\"git\" " + nsPub + "\n" +
		"old@example.com valid-before=\"20260101Z\" " + oldPub + "\n"
	as, err := sign.ParseAllowedSigners("allowed_signers", []byte(allowed))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)
	chainA := filepath.Join(dir, "a.jsonl")
	chainB := filepath.Join(dir, "b.jsonl")
	(&chain.File{Path: chainA}).Append(chain.Entry{Kind: chain.KindNote, Note: "first"})
	good := appendSigned(t, chainA, "a", ada, "ada@example.com", now)

	changed := good
	changed.Extra = cloneMap(good.Extra)
	changed.Extra["pattern"] = "push to release/**"
	moved := good
	moved.Seq = 3
	// The same entry written into another chain: its prev and chain field
	// no longer match the position it was signed for.
	copied := good
	copied.Prev = chain.Genesis
	copied.Seq = 1

	cases := []struct {
		name  string
		e     chain.Entry
		chain string
		want  error
	}{
		{"listed key", good, "a", nil},
		{"one byte changed", changed, "a", sign.ErrBadSig},
		{"moved to another seq", moved, "a", sign.ErrBadSig},
		{"copied into another chain", copied, "b", ErrWrongChain},
		{"copied, chain field forged", withChain(copied, "b"), "b", sign.ErrBadSig},
		{"unlisted key", appendSigned(t, chainB, "b", eve, "ada@example.com", now), "b", sign.ErrUnlisted},
		{"listed without the gitwarrant namespace", appendSigned(t, chainB, "b", ns, "ns@example.com", now), "b", sign.ErrNSNotListed},
		{"outside the validity window", appendSigned(t, chainB, "b", old, "old@example.com", now), "b", sign.ErrExpired},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Verify(c.e, c.chain, as)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if c.want != nil && !strings.Contains(err.Error(), strings.SplitN(c.want.Error(), " (", 2)[0]) {
				t.Fatalf("message %q does not say which check failed", err)
			}
			if errors.Is(c.want, ErrWrongChain) {
				return // a gitwarrant rule: the chain is not part of SSHSIG
			}
			if ok := sshVerify(t, dir, allowed, c.e); ok != (err == nil) {
				t.Fatalf("ssh-keygen -Y verify ok=%v, Go: %v", ok, err)
			}
		})
	}
}

func withChain(e chain.Entry, name string) chain.Entry {
	e.Extra = cloneMap(e.Extra)
	e.Extra["chain"] = name
	return e
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
