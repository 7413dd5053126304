// Package amend is the signed `amend` record entry: its fields, the bytes
// a person signs, and its verification against allowed_signers
// (docs/signing.md#what-a-signature-binds). The CLI's amend command and the
// warrant diff both use it.
package amend

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// Ops of an amend.
const (
	OpAdd    = "add"
	OpRemove = "remove"
)

// Amend is the body of an amend entry.
type Amend struct {
	Loop     string // the loop whose file changed
	List     string // read … never, or reserved
	Op       string // OpAdd or OpRemove
	Pattern  string // the warrant entry's text
	Before   string // "sha256:…" of the loop file before
	After    string // "sha256:…" of the loop file after
	Blob     string // Git blob id (hex) of the file after, so its bytes can be read back
	Proposal string // the proposal it answers, if any
	Signer   string // the principal who signs
	Chain    string // the chain (writer) it is appended to
	Sig      string // armored SSHSIG; empty until signed
}

// Entry returns the record entry for a (kind amend; seq, prev and ts are
// the chain's to fill).
func (a Amend) Entry() chain.Entry {
	x := map[string]any{
		"list": a.List, "op": a.Op, "pattern": a.Pattern,
		"loop_before": a.Before, "loop_after": a.After,
		"signer": a.Signer, "chain": a.Chain,
	}
	if a.Proposal != "" {
		x["proposal"] = a.Proposal
	}
	if a.Sig != "" {
		x["sig"] = a.Sig
	}
	e := chain.Entry{Kind: chain.KindAmend, Loop: a.Loop, Extra: x}
	if a.Blob != "" {
		e.LoopBlob = "git:" + a.Blob
	}
	return e
}

// FromEntry reads an amend entry's body.
func FromEntry(e chain.Entry) (Amend, error) {
	if e.Kind != chain.KindAmend {
		return Amend{}, fmt.Errorf("entry %d is a %s entry, not an amend", e.Seq, e.Kind)
	}
	s := func(k string) string { v, _ := e.Extra[k].(string); return v }
	a := Amend{Loop: e.Loop, List: s("list"), Op: s("op"), Pattern: s("pattern"), Before: s("loop_before"), After: s("loop_after"),
		Proposal: s("proposal"), Signer: s("signer"), Chain: s("chain"), Sig: s("sig"), Blob: strings.TrimPrefix(e.LoopBlob, "git:")}
	if a.List == "" || a.Pattern == "" || (a.Op != OpAdd && a.Op != OpRemove) {
		return a, fmt.Errorf("entry %d: an amend needs list, pattern and op (add or remove)", e.Seq)
	}
	return a, nil
}

// Message is what is signed: the canonical entry without sig and hash.
// It holds seq, prev, ts and chain, so a signature cannot move to another
// position or chain, and loop, list, op, pattern and the file digests, so
// it cannot move to another change.
func Message(e chain.Entry) ([]byte, error) {
	f := e.Fields()
	delete(f, "sig")
	delete(f, "hash")
	return chain.Canonical(f)
}

// ErrWrongChain is an amend entry found in a chain other than the one it
// was signed for.
var ErrWrongChain = errors.New("the amend was signed for another chain")

// Verify checks an amend entry found in chain chainName against
// allowed_signers, at the entry's own time.
func Verify(e chain.Entry, chainName string, as *sign.AllowedSigners) (*sign.Verified, error) {
	a, err := FromEntry(e)
	if err != nil {
		return nil, err
	}
	if a.Sig == "" {
		return nil, fmt.Errorf("entry %d is not signed", e.Seq)
	}
	if a.Chain != chainName {
		return nil, fmt.Errorf("%w (signed for %q, found in %q)", ErrWrongChain, a.Chain, chainName)
	}
	at, err := time.Parse(chain.TSLayout, e.TS)
	if err != nil {
		if at, err = time.Parse(time.RFC3339Nano, e.TS); err != nil {
			return nil, fmt.Errorf("entry %d: unreadable ts %q", e.Seq, e.TS)
		}
	}
	msg, err := Message(e)
	if err != nil {
		return nil, err
	}
	return as.Verify(msg, a.Sig, a.Signer, at)
}
