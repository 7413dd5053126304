package sign

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Signing with a key held only in ssh-agent, named the ways git's
// user.signingkey names it: its .pub file, or `key::<public key>`.
func TestSignThroughAgent(t *testing.T) {
	for _, tool := range []string{"ssh-agent", "ssh-add", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	dir := t.TempDir()
	priv, pub := genKey(t, dir, "agentkey", "ed25519")
	sock := filepath.Join(dir, "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { agent.Process.Kill(); agent.Wait() }()
	for i := 0; i < 50; i++ {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Setenv("SSH_AUTH_SOCK", sock)
	if out, err := exec.Command("ssh-add", priv).CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v %s", err, out)
	}
	// Only the public half stays on disk.
	pubOnly := filepath.Join(dir, "only.pub")
	os.WriteFile(pubOnly, []byte(pub+"\n"), 0o600)
	os.Remove(priv)
	as, err := ParseAllowedSigners("allowed_signers", []byte("me@example.com "+pub+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte(`{"kind":"amend"}`)
	for _, k := range []Key{Key(pubOnly), Key("key::" + pub)} {
		s, err := Sign(msg, k, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if _, err := as.Verify(msg, s.Armored, "me@example.com", time.Now()); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		if got, err := k.PublicKey(); err != nil || !strings.HasPrefix(pub, got.Type()) {
			t.Errorf("%s: PublicKey %v %v", k, got, err)
		}
	}
}
