package vouch

import (
	"bytes"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/record"
)

// Memo keeps, for a long-lived process (the server answering Claude
// Code's http hook), what vouching worked out, and gives it back only for
// the very bytes it was worked out from (docs/signing.md#the-cache):
//
//   - a record ref's chain as read from its commit (where the ref stands:
//     lines, size, last entry), keyed by the commit id, which is the hash
//     of the commit's bytes;
//   - a project's State, keyed by allowed_signers' bytes and by the
//     record's refs, each with the commit id it names. The commit id
//     commits, through its tree, to every entry of the chain, so the same
//     refs at the same commits are the same signed entries. A record with
//     a chain that is not a ref here (another clone's folder in the
//     branch copy, docket's file) has no such key and is worked out every
//     time, as without a memo.
//
// Every decision still reads allowed_signers, lists the record's refs and
// reads each ref, so a ref another writer moved, a new writer's ref and
// an edit of allowed_signers decide the very next call. Within one
// process the build is the same, so no build id is needed in the key.
//
// A nil *Memo keeps nothing. Memo is safe for concurrent use; the States
// it returns are shared and read only.
type Memo struct {
	mu     sync.Mutex
	refs   map[plumbing.Hash]gitx.ChainRef
	states map[string]*memoState
}

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{} }

// maxMemo bounds each map; past it the map starts again empty.
const maxMemo = 1024

// memoState is one project's State and what it was worked out from.
type memoState struct {
	signers    []byte // allowed_signers' bytes (nil: the file was absent)
	hasSigners bool
	key        []sourceKey
	st         *State
}

// sourceKey is one record ref and the commit it names.
type sourceKey struct {
	name   string
	commit plumbing.Hash
}

// sourceKeys is the key of a record's chains, and false when one of
// them is not a ref (its bytes are not named by a commit id).
func sourceKeys(srcs []record.Source) ([]sourceKey, bool) {
	key := make([]sourceKey, 0, len(srcs))
	for _, s := range srcs {
		if s.Ref == nil {
			return nil, false
		}
		key = append(key, sourceKey{s.Ref.Name, s.Ref.Commit})
	}
	return key, true
}

// chainRefs reads a record ref's chain through the memo: the ref is read
// every time, its commit only when the memo holds no chain read from that
// commit id. Nil (Repo.ReadChainRef) without a memo or a repository.
func (m *Memo) chainRefs(repo *gitx.Repo) func(string) (*gitx.ChainRef, error) {
	if m == nil || repo == nil {
		return nil
	}
	return func(name string) (*gitx.ChainRef, error) {
		if h, err := repo.ReadRef(name); err == nil && !h.IsZero() {
			m.mu.Lock()
			cr, ok := m.refs[h]
			m.mu.Unlock()
			if ok {
				cr.Name = name
				return &cr, nil
			}
		}
		cr, err := repo.ReadChainRef(name)
		if err == nil && cr.Exists() {
			m.mu.Lock()
			if m.refs == nil || len(m.refs) >= maxMemo {
				m.refs = map[plumbing.Hash]gitx.ChainRef{}
			}
			m.refs[cr.Commit] = *cr
			m.mu.Unlock()
		}
		return cr, err
	}
}

// get returns the State kept for the project at dir when it was worked
// out from signers (nil: absent) and the refs key, else nil.
func (m *Memo) get(dir string, signers []byte, key []sourceKey, keyed bool) *State {
	if m == nil || !keyed {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.states[dir]
	if e == nil || e.hasSigners != (signers != nil) || !bytes.Equal(e.signers, signers) || !slices.Equal(e.key, key) {
		return nil
	}
	return e.st
}

// put keeps st as worked out from signers and the refs key.
func (m *Memo) put(dir string, signers []byte, key []sourceKey, keyed bool, st *State) {
	if m == nil || !keyed {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.states == nil || len(m.states) >= maxMemo {
		m.states = map[string]*memoState{}
	}
	m.states[dir] = &memoState{signers: bytes.Clone(signers), hasSigners: signers != nil, key: key, st: st}
}

// with is s reading Git blobs through blob: a State kept in a Memo is
// shared, and reads through the repository of the decision using it.
func (s *State) with(blob func(hex string) ([]byte, error)) *State {
	cp := *s
	cp.blob = blob
	return &cp
}
