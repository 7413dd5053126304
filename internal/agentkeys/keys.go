// Package agentkeys stores the bearer keys agents use over HTTP
// (docs/mcp.md#agent-keys): only a key's SHA-256 and a visible prefix are
// kept, under the clone's local state directory (.git/gitwarrant/), which is
// never committed and which the hook's self-protection covers.
package agentkeys

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Scopes. A read key may call every tool except propose_amendment. A hook
// key may only post Claude Code's hook events to /hooks/claude, and no
// other key may (docs/hook-protocol.md#the-http-hook).
const (
	ScopeRead    = "read"
	ScopePropose = "propose"
	ScopeHook    = "hook"
)

// Prefix starts every secret, so a leaked key is recognisable in a log or
// a secret scanner.
const Prefix = "gwk_"

// secretLen is the number of random characters after Prefix.
const secretLen = 32

// alphabet is base62; 32 characters carry about 190 bits.
const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// labelRE is compiled on first use: package init runs on every hook call.
var labelRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// Key is one stored key. The secret itself is never stored.
type Key struct {
	Label    string     `json:"label"`
	Scope    string     `json:"scope"`
	Visible  string     `json:"prefix"` // Prefix plus the first 6 secret characters
	SHA256   string     `json:"sha256"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used,omitempty"`
	Revoked  *time.Time `json:"revoked,omitempty"`
}

// Errors a lookup can give; the HTTP layer maps each to its code.
var (
	ErrUnknown = errors.New("unknown key")
	ErrRevoked = errors.New("revoked key")
)

// Store is the key file. Every lookup re-reads it when it changed, so a
// revocation made by `gitwarrant keys revoke` in another process takes
// effect on the next call.
type Store struct {
	Path string
	Now  func() time.Time

	mu      sync.Mutex
	keys    []Key
	stamp   fileStamp
	pending map[string]time.Time // last-used times not yet written
	flushed time.Time
}

type fileStamp struct {
	size int64
	mod  time.Time
	ok   bool
}

// Open returns the store at path (the file need not exist yet).
func Open(path string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{Path: path, Now: now, pending: map[string]time.Time{}}
}

// Create makes a new key and returns its secret, which is shown once.
func (s *Store) Create(label, scope string) (string, Key, error) {
	if !labelRE().MatchString(label) {
		return "", Key{}, fmt.Errorf("label %q: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", label)
	}
	if scope != ScopeRead && scope != ScopePropose && scope != ScopeHook {
		return "", Key{}, fmt.Errorf("scope %q: must be %q, %q or %q", scope, ScopeRead, ScopePropose, ScopeHook)
	}
	secret, err := newSecret()
	if err != nil {
		return "", Key{}, err
	}
	var k Key
	err = s.update(func(keys []Key) ([]Key, error) {
		for _, o := range keys {
			if o.Label == label && o.Revoked == nil {
				return nil, fmt.Errorf("a key labelled %q already exists: revoke it first or choose another label", label)
			}
		}
		k = Key{Label: label, Scope: scope, Visible: secret[:len(Prefix)+6], SHA256: digest(secret), Created: s.Now().UTC()}
		return append(keys, k), nil
	})
	return secret, k, err
}

// List returns every key, oldest first.
func (s *Store) List() ([]Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return nil, err
	}
	return append([]Key(nil), s.keys...), nil
}

// Revoke revokes the live key with this label or visible prefix.
func (s *Store) Revoke(which string) (Key, error) {
	var k Key
	err := s.update(func(keys []Key) ([]Key, error) {
		n := -1
		for i, o := range keys {
			if o.Revoked == nil && (o.Label == which || o.Visible == which) {
				if n >= 0 {
					return nil, fmt.Errorf("%q names more than one key: use the prefix shown by `gitwarrant keys list`", which)
				}
				n = i
			}
		}
		if n < 0 {
			return nil, fmt.Errorf("no live key labelled or prefixed %q (see `gitwarrant keys list`)", which)
		}
		t := s.Now().UTC()
		keys[n].Revoked = &t
		k = keys[n]
		return keys, nil
	})
	return k, err
}

// Lookup finds the key for a presented secret, in constant time per key.
func (s *Store) Lookup(secret string) (Key, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reloadLocked(); err != nil {
		return Key{}, err
	}
	d := []byte(digest(secret))
	for _, k := range s.keys {
		if subtle.ConstantTimeCompare(d, []byte(k.SHA256)) == 1 {
			if k.Revoked != nil {
				return k, ErrRevoked
			}
			s.pending[k.SHA256] = s.Now().UTC()
			return k, nil
		}
	}
	return Key{}, ErrUnknown
}

// Flush writes the last-used times gathered since the previous flush. The
// server calls it at most once a second and at shutdown, so a busy key does
// not rewrite the file on every request.
func (s *Store) Flush() error {
	s.mu.Lock()
	if len(s.pending) == 0 {
		s.mu.Unlock()
		return nil
	}
	pending := s.pending
	s.pending = map[string]time.Time{}
	s.mu.Unlock()
	return s.update(func(keys []Key) ([]Key, error) {
		for i := range keys {
			if t, ok := pending[keys[i].SHA256]; ok {
				t := t
				keys[i].LastUsed = &t
			}
		}
		return keys, nil
	})
}

func (s *Store) update(f func([]Key) ([]Key, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := chain.Lock(s.Path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	s.stamp = fileStamp{}
	if err := s.reloadLocked(); err != nil {
		return err
	}
	keys, err := f(append([]Key(nil), s.keys...))
	if err != nil {
		return err
	}
	sort.SliceStable(keys, func(i, j int) bool { return keys[i].Created.Before(keys[j].Created) })
	data, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(s.Path, append(data, '\n')); err != nil {
		return err
	}
	s.keys = keys
	s.stamp = stampOf(s.Path)
	return nil
}

func (s *Store) reloadLocked() error {
	st := stampOf(s.Path)
	if st == s.stamp && s.stamp.ok {
		return nil
	}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		s.keys, s.stamp = nil, st
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the key store: %w", err)
	}
	var keys []Key
	if err := json.Unmarshal(data, &keys); err != nil {
		return fmt.Errorf("%s: the key store is not valid JSON (%v): restore it from a backup or remove it and create new keys", s.Path, err)
	}
	s.keys, s.stamp = keys, st
	return nil
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{size: fi.Size(), mod: fi.ModTime(), ok: true}
}

func writeFile(path string, data []byte) error {
	return fsx.WriteAtomic(path, data, 0o600)
}

func newSecret() (string, error) {
	var b strings.Builder
	b.WriteString(Prefix)
	buf := make([]byte, 1)
	for b.Len() < len(Prefix)+secretLen {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("generating a key: %w", err)
		}
		// Rejection sampling keeps the alphabet uniform.
		if int(buf[0]) >= 256-256%len(alphabet) {
			continue
		}
		b.WriteByte(alphabet[int(buf[0])%len(alphabet)])
	}
	return b.String(), nil
}

func digest(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(h[:])
}
