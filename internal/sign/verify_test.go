package sign

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// genKey makes a real key with ssh-keygen and returns the private key path
// and the public key line.
func genKey(t *testing.T, dir, name, typ string) (string, string) {
	t.Helper()
	path := filepath.Join(dir, name)
	args := []string{"-q", "-t", typ, "-N", "", "-C", name, "-f", path}
	if out, err := exec.Command("ssh-keygen", args...).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// opensshVerify is ssh-keygen's verdict on the same inputs.
func opensshVerify(t *testing.T, dir, allowed string, msg []byte, armored, principal string, at time.Time) bool {
	t.Helper()
	sigPath := filepath.Join(dir, "check.sig")
	allowedPath := filepath.Join(dir, "check_allowed")
	os.WriteFile(sigPath, []byte(armored+"\n"), 0o600)
	os.WriteFile(allowedPath, []byte(allowed), 0o600)
	cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", allowedPath, "-I", principal, "-n", Namespace,
		"-s", sigPath, "-Overify-time="+at.UTC().Format("20060102150405")+"Z")
	cmd.Stdin = bytes.NewReader(msg)
	out, err := cmd.CombinedOutput()
	if err != nil && !strings.Contains(string(out), "ould not verify") && !strings.Contains(string(out), "failed") {
		t.Logf("ssh-keygen said: %s", out)
	}
	return err == nil
}

func TestVerifyAgreesWithSSHKeygen(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	alice, alicePub := genKey(t, dir, "alice", "ed25519")
	mallory, _ := genKey(t, dir, "mallory", "ed25519")
	carol, carolPub := genKey(t, dir, "carol", "ed25519")
	dave, davePub := genKey(t, dir, "dave", "ecdsa")
	erin, erinPub := genKey(t, dir, "erin", "rsa")
	frank, frankPub := genKey(t, dir, "frank", "ed25519")
	grace, gracePub := genKey(t, dir, "grace", "ed25519")
	heidi, heidiPub := genKey(t, dir, "heidi", "ed25519")
	ivan, ivanPub := genKey(t, dir, "ivan", "ecdsa")

	allowed := strings.Join([]string{
		"# people who may sign gitwarrant amends",
		"",
		"alice@example.com " + alicePub,
		`  carol@example.com namespaces="git,file" ` + carolPub + " carol's laptop",
		`dave@example.com valid-after="20260101Z",valid-before="20261231235959Z" ` + davePub,
		`"erin@example.com,*@ops.example.com" namespaces="gitwarrant" ` + erinPub,
		`*@team.example.com,!intern@team.example.com NAMESPACES="gitw?rr*" ` + frankPub,
		`grace@example.com namespaces="*,!gitwarrant" ` + gracePub,
		`# heidi: one line refuses the key, a later one admits it`,
		`heidi@example.com namespaces="git" ` + heidiPub,
		`heidi@example.com namespaces="file,gitwarrant" ` + heidiPub,
		`"ivan the admin" valid-before="20990101Z" ` + ivanPub + ` # trailing words are a comment`,
	}, "\n") + "\n"
	as, err := ParseAllowedSigners("allowed_signers", []byte(allowed))
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte(`{"kind":"amend","list":"send","loop":"deploy","pattern":"push to release/*","seq":4}`)
	sig := func(key string) string {
		s, err := Sign(msg, Key(key), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return s.Armored
	}
	aliceSig := sig(alice)
	in := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	flipped := append([]byte(nil), msg...)
	flipped[10] ^= 1
	otherNS := func() string {
		os.WriteFile(filepath.Join(dir, "m"), msg, 0o600)
		out, err := exec.Command("ssh-keygen", "-Y", "sign", "-q", "-n", "git", "-f", alice, filepath.Join(dir, "m")).CombinedOutput()
		if err != nil {
			t.Fatalf("%v %s", err, out)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "m.sig"))
		return string(b)
	}()

	cases := []struct {
		name      string
		msg       []byte
		sig       string
		principal string
		at        time.Time
		want      error // nil: verifies
	}{
		{"listed key", msg, aliceSig, "alice@example.com", in, nil},
		{"one byte changed", flipped, aliceSig, "alice@example.com", in, ErrBadSig},
		{"wrong principal", msg, aliceSig, "bob@example.com", in, ErrUnlisted},
		{"unlisted key", msg, sig(mallory), "alice@example.com", in, ErrUnlisted},
		{"listed without the gitwarrant namespace", msg, sig(carol), "carol@example.com", in, ErrNSNotListed},
		{"inside the validity window", msg, sig(dave), "dave@example.com", in, nil},
		{"before valid-after", msg, sig(dave), "dave@example.com", time.Date(2025, 12, 31, 23, 59, 59, 0, time.UTC), ErrNotYetValid},
		{"after valid-before", msg, sig(dave), "dave@example.com", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), ErrExpired},
		{"rsa, quoted principal list", msg, sig(erin), "erin@example.com", in, nil},
		{"rsa, wildcard principal", msg, sig(erin), "deploy@ops.example.com", in, nil},
		{"namespace and principal patterns", msg, sig(frank), "zoe@team.example.com", in, nil},
		{"negated principal", msg, sig(frank), "intern@team.example.com", in, ErrUnlisted},
		{"negated namespace", msg, sig(grace), "grace@example.com", in, ErrNSNotListed},
		{"a later line admits the key", msg, sig(heidi), "heidi@example.com", in, nil},
		{"quoted principal with a space", msg, sig(ivan), "ivan the admin", in, nil},
		{"quoted principal, wrong name", msg, sig(ivan), "ivan", in, ErrUnlisted},
		{"key listed for someone else", msg, sig(ivan), "heidi@example.com", in, ErrUnlisted},
		{"signature for another namespace", msg, otherNS, "alice@example.com", in, ErrNamespace},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := as.Verify(c.msg, c.sig, c.principal, c.at)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("Go verdict: %v, want %v", err, c.want)
			}
			if ok := opensshVerify(t, dir, allowed, c.msg, c.sig, c.principal, c.at); ok != (err == nil) {
				t.Fatalf("ssh-keygen -Y verify says ok=%v, Go says %v", ok, err)
			}
		})
	}
}

func TestParseAllowedSignersErrors(t *testing.T) {
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHH0PqgvD1cE3lmDgFTv5Gv6GgB5nVAsE5zLoAo1dyEI"
	for _, c := range []struct{ line, want string }{
		{`a@x cert-authority ` + key, "cert-authority is not supported"},
		{`a@x cert-authority,namespaces="gitwarrant" ` + key, "cert-authority is not supported"},
		{`a@x no-touch-required ` + key, "unsupported option"},
		{`a@x namespaces=gitwarrant ` + key, "double quotes"},
		{`a@x namespaces ` + key, "needs a value"},
		{`a@x valid-after,namespaces="x" ` + key, "needs a value"},
		{`a@x namespaces="x",valid-after ` + key, "needs a value"},
		{`a@x namespaces="gitwarrant ` + key, "closing quote"},
		{`a@x valid-after="2026" ` + key, "invalid"},
		{`a@x valid-after="20270101",valid-before="20260101" ` + key, "not after"},
		{`a@x`, "no public key"},
		{`"a@x ` + key, "closing quote"},
		{`a@x ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIHH0PqgvD1cE3lmDgFTv5Gv6GgB5nVAsE5zLoAo1dyEI`, "not a public key"},
	} {
		_, err := ParseAllowedSigners("allowed_signers", []byte("# ok\n"+c.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "allowed_signers:2:") {
			t.Errorf("%s:\n got %v\nwant allowed_signers:2: … %s", c.line, err, c.want)
		}
	}
}

// skSigner makes sk-ssh-ed25519 signatures in software, with or without
// the user-presence flag: no FIDO hardware is needed to test the rule.
type skSigner struct {
	priv  ed25519.PrivateKey
	pub   ssh.PublicKey
	flags byte
}

const skApplication = "ssh:"

func newSKSigner(t *testing.T, flags byte) *skSigner {
	pubRaw, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	wire := ssh.Marshal(struct {
		Type, Key, App string
	}{ssh.KeyAlgoSKED25519, string(pubRaw), skApplication})
	pub, err := ssh.ParsePublicKey(wire)
	if err != nil {
		t.Fatal(err)
	}
	return &skSigner{priv: priv, pub: pub, flags: flags}
}

func (s *skSigner) PublicKey() ssh.PublicKey { return s.pub }

func (s *skSigner) Sign(_ io.Reader, data []byte) (*ssh.Signature, error) {
	app := sha256.Sum256([]byte(skApplication))
	msg := sha256.Sum256(data)
	rest := make([]byte, 5)
	rest[0] = s.flags
	binary.BigEndian.PutUint32(rest[1:], 7)
	signed := append(append(app[:], rest...), msg[:]...)
	return &ssh.Signature{Format: ssh.KeyAlgoSKED25519, Blob: ed25519.Sign(s.priv, signed), Rest: rest}, nil
}

func TestSecurityKeyNeedsUserPresence(t *testing.T) {
	msg := []byte(`{"kind":"amend"}`)
	for _, c := range []struct {
		flags byte
		want  error
	}{{0x01, nil}, {0x05, nil}, {0x00, ErrPresence}, {0x04, ErrPresence}} {
		s := newSKSigner(t, c.flags)
		sig, err := sshsig.Sign(bytes.NewReader(msg), s, sshsig.HashSHA512, Namespace)
		if err != nil {
			t.Fatal(err)
		}
		line := "amy@example.com " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.pub)))
		as, err := ParseAllowedSigners("allowed_signers", []byte(line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		armored := string(sshsig.Armor(sig))
		_, err = as.Verify(msg, armored, "amy@example.com", time.Now())
		// ssh-keygen 9.2 -Y verify accepts sk signatures without the
		// presence flag; gitwarrant is stricter (docs/signing.md#the-trust-model).
		// With the flag, both must accept.
		if sshOK := opensshVerify(t, t.TempDir(), line+"\n", msg, armored, "amy@example.com", time.Now()); c.want == nil && !sshOK {
			t.Errorf("flags 0x%02x: ssh-keygen refused a signature Go accepts", c.flags)
		}
		if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("flags 0x%02x: got %v, want %v", c.flags, err, c.want)
		}
		// Bypassing the early check, x/crypto itself must refuse too.
		if c.want != nil {
			parsed, _ := sshsig.Unarmor([]byte(armored))
			if err := sshsig.Verify(bytes.NewReader(msg), parsed, s.pub, sshsig.HashSHA512, Namespace); err == nil {
				t.Errorf("flags 0x%02x: x/crypto accepted a signature without user presence", c.flags)
			}
		}
		if _, err := as.Verify(append(msg, ' '), armored, "amy@example.com", time.Now()); !errors.Is(err, ErrBadSig) && !errors.Is(err, ErrPresence) {
			t.Errorf("flags 0x%02x: changed message: %v", c.flags, err)
		}
	}
}

// FuzzParseAllowedSigners: any file parses or is refused with a line
// number; nothing panics.
func FuzzParseAllowedSigners(f *testing.F) {
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHH0PqgvD1cE3lmDgFTv5Gv6GgB5nVAsE5zLoAo1dyEI"
	for _, s := range []string{"a@x " + key, `"a b" namespaces="gitwarrant",valid-after="20260101Z" ` + key + " c",
		"# c\n\n*,!x cert-authority " + key, `a namespaces="\"" ` + key, "a namespaces", `a valid-before="2026"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		as, err := ParseAllowedSigners("f", []byte(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		for _, s := range as.Signers {
			if s.Key == nil || s.Principals == "" {
				t.Fatalf("line %d parsed without key or principal", s.Line)
			}
		}
	})
}
