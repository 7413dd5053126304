package vouch

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// Version is one vouched version of a file: the signed entry and who
// signed it.
type Version struct {
	File
	By   string // the principal the signature verified for
	Item *Item
}

// Describe names the version for people: "signed by ada@example.com on
// 2026-05-01 (main-1a2b#12)".
func (v *Version) Describe() string {
	return fmt.Sprintf("signed by %s on %s (%s)", v.By, v.Item.Day(), v.Item.Where())
}

// State is what the record vouches for.
type State struct {
	// Adopted is true once signing is adopted: the record holds a trust
	// root, or allowed_signers names a signer. Until then every loop is
	// in force as it stands.
	Adopted bool
	// Signers are the allowed_signers in force (nil: none, so nothing is
	// vouched for), read from SignersBytes.
	Signers       *sign.AllowedSigners
	SignersBytes  []byte
	SignersDigest string
	// SignersVersion is the version of allowed_signers in force; nil
	// before adoption.
	SignersVersion *Version
	// SignersNote says why the work tree's allowed_signers is not the one
	// in force ("" when it is).
	SignersNote string
	// Problems are findings a person must act on (doctor prints them).
	Problems []string

	files map[string]*fileState
	blob  func(hex string) ([]byte, error)
}

type fileState struct {
	vouched    map[string]*Version // digest → the first entry vouching for it
	superseded map[string]*Version // digest → the version that replaced it
	heads      []*Version          // vouched, not superseded, newest first
}

func (s *State) file(name string) *fileState {
	f := s.files[name]
	if f == nil {
		f = &fileState{vouched: map[string]*Version{}, superseded: map[string]*Version{}}
		s.files[name] = f
	}
	return f
}

// Compute works out what col vouches for. current is allowed_signers as
// the work tree holds it (nil when missing); blob reads a Git blob.
func Compute(col *Collection, current []byte, blob func(hex string) ([]byte, error)) *State {
	s := &State{files: map[string]*fileState{}, blob: blob}
	items := append([]*Item(nil), col.Items...)
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i].Entry, items[j].Entry
		if a.TS != b.TS {
			return a.TS < b.TS
		}
		if items[i].Chain != items[j].Chain {
			return items[i].Chain < items[j].Chain
		}
		return a.Seq < b.Seq
	})
	s.computeSigners(col, items, current)
	if s.Signers == nil {
		return s
	}
	for _, it := range items {
		if !hasLoop(it) {
			continue
		}
		by, err := col.Verify(it, s.Signers, s.SignersDigest)
		if err != nil {
			continue
		}
		for _, f := range it.Files {
			if f.Loop == SignersFile {
				continue
			}
			s.add(f, by, it)
		}
	}
	for _, fs := range s.files {
		fs.settle()
	}
	return s
}

func hasLoop(it *Item) bool {
	for _, f := range it.Files {
		if f.Loop != SignersFile {
			return true
		}
	}
	return false
}

// add records that f is vouched for by it, signed by by.
func (s *State) add(f File, by string, it *Item) {
	fs := s.file(f.Loop)
	v := &Version{File: f, By: by, Item: it}
	if fs.vouched[f.After] == nil {
		fs.vouched[f.After] = v
	}
	if f.Before != "" && f.Before != f.After && fs.superseded[f.Before] == nil {
		fs.superseded[f.Before] = v
	}
}

// settle lists the heads: vouched versions nothing replaced, newest first.
func (fs *fileState) settle() {
	fs.heads = fs.heads[:0]
	for d, v := range fs.vouched {
		if fs.superseded[d] == nil {
			fs.heads = append(fs.heads, v)
		}
	}
	sort.Slice(fs.heads, func(i, j int) bool {
		a, b := fs.heads[i].Item.Entry, fs.heads[j].Item.Entry
		if a.TS != b.TS {
			return a.TS > b.TS
		}
		return fs.heads[i].Item.Where() > fs.heads[j].Item.Where()
	})
}

// computeSigners follows allowed_signers from its trust root: the one
// bless of allowed_signers that replaces nothing, signed by a key it
// lists; then each signed change whose before is trusted, verified
// against those before bytes (docs/signing.md#the-trust-root).
func (s *State) computeSigners(col *Collection, items []*Item, current []byte) {
	named := false
	if cur, err := sign.ParseAllowedSigners(SignersFile, current); err == nil && len(cur.Signers) > 0 {
		named = true
	} else if err != nil {
		named = true // a file that does not parse names someone, or means to
	}
	fs := s.file(SignersFile)
	roots := map[string]*Version{}
	for _, it := range items {
		for _, f := range it.Files {
			if f.Loop != SignersFile || f.Before != "" {
				continue
			}
			b, as, err := s.signersAt(f, current)
			if err != nil {
				continue
			}
			_ = b
			if by, err := col.Verify(it, as, f.After); err == nil && roots[f.After] == nil {
				roots[f.After] = &Version{File: f, By: by, Item: it}
			}
		}
	}
	if len(roots) == 0 {
		s.Adopted = named
		if named {
			s.Problems = append(s.Problems, "allowed_signers names signers, but no signed entry of the record vouches for it (no trust root): every loop allows nothing until a signer runs `gitwarrant bless`")
		}
		return
	}
	s.Adopted = true
	if len(roots) > 1 {
		var where []string
		for _, v := range roots {
			where = append(where, v.Item.Where())
		}
		sort.Strings(where)
		s.Problems = append(s.Problems, fmt.Sprintf("the record holds %d trust roots for allowed_signers (%s): one was not made by your signers — run `gitwarrant record verify` and compare the record with its pushed refs; until then no loop is in force", len(roots), strings.Join(where, ", ")))
		return
	}
	for d, v := range roots {
		fs.vouched[d] = v
	}
	for changed := true; changed; {
		changed = false
		for _, it := range items {
			for _, f := range it.Files {
				if f.Loop != SignersFile || f.Before == "" || fs.vouched[f.Before] == nil || fs.vouched[f.After] != nil {
					continue
				}
				_, as, err := s.signersAt(File{After: f.Before, Blob: fs.vouched[f.Before].Blob}, current)
				if err != nil {
					continue
				}
				if by, err := col.Verify(it, as, f.Before); err == nil {
					s.add(f, by, it)
					changed = true
				}
			}
		}
	}
	fs.settle()
	if d := loops.Digest(current); fs.vouched[d] != nil && fs.superseded[d] == nil {
		s.setSigners(current, d, fs.vouched[d])
		return
	}
	for _, v := range fs.heads {
		if b, as, err := s.signersAt(v.File, current); err == nil {
			s.setSigners(b, v.After, v)
			s.Signers = as
			s.SignersNote = "allowed_signers has unsigned changes: signatures are checked against the version " + v.Describe() + "; sign the change with `gitwarrant signers add|remove` or `gitwarrant bless`"
			return
		}
	}
	s.Problems = append(s.Problems, "no signed version of allowed_signers can be read from Git: no loop is in force")
}

func (s *State) setSigners(b []byte, digest string, v *Version) {
	s.SignersBytes, s.SignersDigest, s.SignersVersion = b, digest, v
	s.Signers, _ = sign.ParseAllowedSigners(SignersFile, b)
}

// signersAt reads the allowed_signers bytes f vouches for (the work
// tree's when they are those bytes, else f's blob) and parses them.
func (s *State) signersAt(f File, current []byte) ([]byte, *sign.AllowedSigners, error) {
	b, err := s.bytesOf(f, current)
	if err != nil {
		return nil, nil, err
	}
	as, err := sign.ParseAllowedSigners(SignersFile, b)
	return b, as, err
}

// bytesOf reads the bytes f vouches for: current when they are those
// bytes, else f's blob, checked against f's digest.
func (s *State) bytesOf(f File, current []byte) ([]byte, error) {
	if current != nil && loops.Digest(current) == f.After {
		return current, nil
	}
	if f.Blob == "" || s.blob == nil {
		return nil, errors.New("the signed entry names no Git blob for these bytes")
	}
	b, err := s.blob(f.Blob)
	if err != nil {
		return nil, err
	}
	if loops.Digest(b) != f.After {
		return nil, fmt.Errorf("blob %s is not the signed bytes", f.Blob)
	}
	return b, nil
}

// Decide says which bytes of loop name are in force when its file holds
// data (loops.Voucher).
func (s *State) Decide(name string, data []byte) loops.Vouched {
	if !s.Adopted {
		return loops.Vouched{InForce: true}
	}
	fs := s.files[name]
	if fs == nil {
		fs = &fileState{}
	}
	d := loops.Digest(data)
	if v := fs.vouched[d]; v != nil && fs.superseded[d] == nil && s.Signers != nil {
		return loops.Vouched{InForce: true, Note: ""}
	}
	why := fmt.Sprintf("loop %s has unsigned changes", name)
	if by := fs.superseded[d]; by != nil {
		why = fmt.Sprintf("loop %s is an older signed version, replaced by the one %s", name, by.Describe())
	}
	for _, v := range fs.heads {
		if b, err := s.bytesOf(v.File, data); err == nil {
			return loops.Vouched{Bytes: b, Note: fmt.Sprintf("%s: deciding under the version %s; sign with `gitwarrant amend` or `gitwarrant bless %s`", why, v.Describe(), name)}
		}
	}
	if s.Signers == nil {
		return loops.Vouched{Note: fmt.Sprintf("loop %s is not in force: %s", name, strings.Join(s.Problems, "; "))}
	}
	return loops.Vouched{Note: fmt.Sprintf("loop %s is not signed: it allows nothing until a signer signs it with `gitwarrant bless %s`", name, name)}
}

// InForce reports the version of loop name in force for data, or nil
// (unsigned mode, or none vouched).
func (s *State) InForce(name string, data []byte) *Version {
	fs := s.files[name]
	if fs == nil || s.Signers == nil {
		return nil
	}
	d := loops.Digest(data)
	if v := fs.vouched[d]; v != nil && fs.superseded[d] == nil {
		return v
	}
	if len(fs.heads) > 0 {
		return fs.heads[0]
	}
	return nil
}
