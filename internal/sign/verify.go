package sign

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// Why a signature is refused. Each refusal wraps one of these, so callers
// and tests can tell which check failed.
var (
	ErrMalformed   = errors.New("the signature is not a readable SSH signature")
	ErrNamespace   = errors.New("the signature was made for another namespace")
	ErrBadSig      = errors.New("the signature does not match the signed entry")
	ErrPresence    = errors.New("the security key signature lacks the user-presence flag")
	ErrUnlisted    = errors.New("no allowed_signers line lists this principal with this key")
	ErrNSNotListed = errors.New("the key is listed without the gitwarrant namespace")
	ErrNotYetValid = errors.New("the key is not yet valid at the entry's time")
	ErrExpired     = errors.New("the key is no longer valid at the entry's time")
)

// Verified says who signed.
type Verified struct {
	Principal   string
	Fingerprint string // SHA256:… of the key
	Line        int    // the allowed_signers line that admitted it
}

// Verify checks an armored SSHSIG over message, claimed by principal, at
// time at (the entry's own timestamp), the way `ssh-keygen -Y verify -n
// gitwarrant -I principal -Overify-time=at` does: the signature must be
// valid for the namespace and some line must list the principal (patterns,
// negation) and the key, with the namespace allowed and at inside the
// line's validity window. When lines list the key but refuse it, the error
// says why (namespace, window), most specific first.
func (a *AllowedSigners) Verify(message []byte, armored, principal string, at time.Time) (*Verified, error) {
	sig, err := sshsig.Unarmor([]byte(armored))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if sig.Namespace != Namespace {
		return nil, fmt.Errorf("%w (%q, not %q)", ErrNamespace, sig.Namespace, Namespace)
	}
	if err := checkPresence(sig); err != nil {
		return nil, err
	}
	if err := sshsig.Verify(bytes.NewReader(message), sig, sig.PublicKey, sig.HashAlgorithm, Namespace); err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrBadSig, err)
	}
	fp := ssh.FingerprintSHA256(sig.PublicKey)
	at = at.Truncate(time.Second) // OpenSSH compares whole seconds
	var refusal error
	for _, s := range a.Signers {
		if matchPatternList(principal, s.Principals) != 1 || !sameKey(s.Key, sig.PublicKey) {
			continue
		}
		why := s.refuse(at)
		if why == nil {
			return &Verified{Principal: principal, Fingerprint: fp, Line: s.Line}, nil
		}
		if refusal == nil {
			refusal = fmt.Errorf("%s:%d: %w", a.Path, s.Line, why)
		}
	}
	if refusal != nil {
		return nil, refusal
	}
	return nil, fmt.Errorf("%w (%s, key %s, in %s)", ErrUnlisted, principal, fp, a.Path)
}

// refuse returns why a line that lists the key does not admit it at t.
func (s *Signer) refuse(t time.Time) error {
	if s.HasNS && matchPatternList(Namespace, s.Namespaces) != 1 {
		return fmt.Errorf("%w (namespaces=%q)", ErrNSNotListed, s.Namespaces)
	}
	if !s.ValidAfter.IsZero() && t.Before(s.ValidAfter) {
		return fmt.Errorf("%w (valid-after %s, entry at %s)", ErrNotYetValid, s.ValidAfter.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
	}
	if !s.ValidBefore.IsZero() && t.After(s.ValidBefore) {
		return fmt.Errorf("%w (valid-before %s, entry at %s)", ErrExpired, s.ValidBefore.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
	}
	return nil
}

func sameKey(a, b ssh.PublicKey) bool {
	return bytes.Equal(a.Marshal(), b.Marshal())
}

// IsSecurityKey reports whether k is a FIDO (sk-) key, whose signatures
// prove a touch (docs/signing.md#the-trust-model).
func IsSecurityKey(k ssh.PublicKey) bool {
	return strings.HasPrefix(k.Type(), "sk-")
}

// checkPresence refuses an sk signature without the user-presence flag.
// golang.org/x/crypto/ssh enforces the same rule; checking it here first
// gives the refusal its own message.
func checkPresence(sig *sshsig.Signature) error {
	if !IsSecurityKey(sig.PublicKey) {
		return nil
	}
	rest := sig.Signature.Rest
	if len(rest) < 5 {
		return fmt.Errorf("%w: the flags are missing", ErrMalformed)
	}
	const userPresent = 0x01
	if rest[0]&userPresent == 0 {
		return fmt.Errorf("%w (flags 0x%02x, counter %d)", ErrPresence, rest[0], binary.BigEndian.Uint32(rest[1:5]))
	}
	return nil
}
