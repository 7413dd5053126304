// Package vouch decides which version of each warrant file is in force
// (docs/signing.md#only-a-signed-warrant-is-in-force): once a trust root
// exists, a loop, its `extends` parents and allowed_signers are in force
// only as bytes a verified signed entry of the record vouches for. It
// verifies signatures and never makes one: the gate imports it, and an
// agent path must never reach the signing side (internal/amend's callers
// in the CLI do that).
package vouch

import (
	"fmt"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// KindBless is a signed entry by which a person vouches for files as they
// stand (`gitwarrant bless`).
const KindBless = "bless"

// SignersFile is the name a signed entry gives allowed_signers (loop names
// cannot hold `_`, so it never names a loop).
const SignersFile = "allowed_signers"

// File is one file a signed entry vouches for: its bytes after (and the
// version in force before, "" for none), and the Git blob that holds them.
type File struct {
	Loop   string // loop name, or SignersFile
	Before string // "sha256:…" of the version it replaces; "" for none
	After  string // "sha256:…" of the bytes vouched for
	Blob   string // Git blob id (hex) of those bytes; "" when not known
}

// Signed is one signed entry of the record that vouches for files.
type Signed struct {
	Chain  string // the chain (writer) it was found in
	Entry  chain.Entry
	Files  []File
	Signer string
}

// Where names the entry for people: chain#seq.
func (s *Signed) Where() string { return fmt.Sprintf("%s#%d", s.Chain, s.Entry.Seq) }

// Day is the entry's date (YYYY-MM-DD), as its signer's clock wrote it.
func (s *Signed) Day() string {
	if len(s.Entry.TS) >= 10 {
		return s.Entry.TS[:10]
	}
	return s.Entry.TS
}

// FromEntry reads what a record entry vouches for: an amend's loop file
// after the change, or the files of a bless. ok is false for any other
// entry, and for one that carries no signature.
func FromEntry(chainName string, e chain.Entry) (Signed, bool) {
	str := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
	s := Signed{Chain: chainName, Entry: e, Signer: str(e.Extra, "signer")}
	if str(e.Extra, "sig") == "" {
		return s, false
	}
	switch e.Kind {
	case chain.KindAmend:
		a, err := amend.FromEntry(e)
		if err != nil || a.After == "" {
			return s, false
		}
		s.Files = []File{{Loop: e.Loop, Before: a.Before, After: a.After, Blob: blobHex(e.LoopBlob)}}
	case KindBless:
		list, _ := e.Extra["files"].([]any)
		for _, x := range list {
			m, _ := x.(map[string]any)
			f := File{Loop: str(m, "loop"), Before: str(m, "before"), After: str(m, "after"), Blob: blobHex(str(m, "blob"))}
			if f.Loop == "" || f.After == "" {
				return s, false
			}
			s.Files = append(s.Files, f)
		}
	default:
		return s, false
	}
	return s, len(s.Files) > 0
}

// blobHex takes a blob id as entries write it ("git:<hex>" or bare hex).
func blobHex(s string) string {
	if len(s) > 4 && s[:4] == "git:" {
		return s[4:]
	}
	return s
}

// BlessEntry is the record entry of a bless by signer, to be appended to
// chainName and signed there (the CLI signs; seq, prev and ts are the
// chain's to fill).
func BlessEntry(files []File, signer, chainName string) chain.Entry {
	list := make([]any, len(files))
	loop := ""
	for i, f := range files {
		m := map[string]any{"loop": f.Loop, "after": f.After}
		if f.Before != "" {
			m["before"] = f.Before
		}
		if f.Blob != "" {
			m["blob"] = "git:" + f.Blob
		}
		list[i] = m
		if len(files) == 1 {
			loop = f.Loop
		}
	}
	return chain.Entry{Kind: KindBless, Loop: loop, Extra: map[string]any{"files": list, "signer": signer, "chain": chainName}}
}

// Verify checks a signed entry found in chain s.Chain against signers, at
// the entry's own time, as an amend is checked
// (docs/signing.md#what-a-signature-binds): the signature covers the
// canonical entry without sig and hash, so it cannot move to another
// position, chain or change.
func Verify(s *Signed, signers *sign.AllowedSigners) (*sign.Verified, error) {
	e := s.Entry
	if e.Kind == chain.KindAmend {
		return amend.Verify(e, s.Chain, signers)
	}
	sig, _ := e.Extra["sig"].(string)
	if c, _ := e.Extra["chain"].(string); c != s.Chain {
		return nil, fmt.Errorf("%w (signed for %q, found in %q)", amend.ErrWrongChain, c, s.Chain)
	}
	at, err := time.Parse(chain.TSLayout, e.TS)
	if err != nil {
		if at, err = time.Parse(time.RFC3339Nano, e.TS); err != nil {
			return nil, fmt.Errorf("entry %d: unreadable ts %q", e.Seq, e.TS)
		}
	}
	msg, err := amend.Message(e)
	if err != nil {
		return nil, err
	}
	return signers.Verify(msg, sig, s.Signer, at)
}
