package warrantdiff

import (
	"bytes"
	"crypto/sha256"
	"slices"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/go-git/go-git/v5/plumbing"
)

// The diff command keeps two things across processes in the parse store
// under the git dir (docs/signing.md#cost), both content-addressed and
// keyed by the running binary's build id as every entry of that store is:
//
//   - the parse of each changed loop file, keyed by its path as the diff
//     names it and the SHA-256 of its exact bytes (loops.ParseStored);
//   - the parents of every loop file of a revision's loops folder, keyed
//     by that folder's tree id: which blob ids the folder holds, under
//     which names, is the tree id's own content, and each file's parent
//     is a function of its bytes alone (parentOf), so the tree id fixes
//     the whole answer. An entry names its tree and each blob id it
//     answers for; a parent is taken only for a blob id the tree, read
//     from Git, lists. So the diff no longer reads the unchanged loop
//     files of a revision it has diffed before.
//
// A missing, damaged or foreign entry is a miss: the files are read and
// parsed as without a cache. The CI gate uses neither (docs/ci.md): a
// pull request's own jobs may write the git dir of the runner it is
// checked on.

// parentsName is the path half of a parents entry's key: no loop file is
// named so (a path there always ends in loops.FileSuffix).
const parentsName = "\x00warrantdiff: parents of a loops tree"

// parentsKey is the sum half of a parents entry's key.
func parentsKey(tree plumbing.Hash) [32]byte {
	return sha256.Sum256([]byte("tree " + tree.String()))
}

// encodeParents writes tree's entry: "tree <id>\n", then one
// "<blob id> <parent>\n" line per blob, sorted ("" for no parent).
func encodeParents(tree plumbing.Hash, parents map[string]string) []byte {
	ids := make([]string, 0, len(parents))
	for id := range parents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b := []byte("tree " + tree.String() + "\n")
	for _, id := range ids {
		b = append(append(append(append(b, id...), ' '), parents[id]...), '\n')
	}
	return b
}

// decodeParents reads tree's entry: the parent of each blob id it lists,
// or nil when the entry is not well formed or names another tree. Every
// parent is a loop name or "".
func decodeParents(tree plumbing.Hash, enc []byte) map[string]string {
	first, rest, ok := bytes.Cut(enc, []byte{'\n'})
	if !ok || string(first) != "tree "+tree.String() {
		return nil
	}
	out := map[string]string{}
	for len(rest) > 0 {
		var line []byte
		line, rest, ok = bytes.Cut(rest, []byte{'\n'})
		if !ok {
			return nil
		}
		id, p, ok := bytes.Cut(line, []byte{' '})
		if !ok || len(id) != 2*len(plumbing.ZeroHash) || !isHex(id) || len(p) > 0 && !loops.ValidName(string(p)) {
			return nil
		}
		out[string(id)] = string(p)
	}
	return out
}

// isHex reports whether b is lower-case hexadecimal, as blob ids are
// written.
func isHex(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// loadParents fills s.parents from the entry of s's loops tree, for the
// blob ids s lists; it reports whether every one of them was found (then
// the entry is not written again).
func (s *Snapshot) loadParents() bool {
	if s.store == nil || s.loopsTree.IsZero() {
		return false
	}
	enc := s.store.Get(parentsName, parentsKey(s.loopsTree))
	if enc == nil {
		return false
	}
	got := decodeParents(s.loopsTree, enc)
	if got == nil {
		return false
	}
	all := true
	for _, id := range s.blobs {
		if p, ok := got[id]; ok {
			s.parents[id] = p
		} else {
			all = false
		}
	}
	s.parentsKept = all
	return all
}

// keepParents writes the entry of s's loops tree once the parent of every
// blob it lists is known. A snapshot with a file that did not parse keeps
// none: a changed file's parent is then "" where an unchanged one's is
// read from its `extends:` line (parentOf), and an entry must hold what
// either way of reading would give.
func (s *Snapshot) keepParents() {
	if s.store == nil || s.loopsTree.IsZero() || s.parentsKept || len(s.failed) > 0 || len(s.Errors) > 0 {
		return
	}
	ps := make(map[string]string, len(s.blobs))
	for _, id := range s.blobs {
		p, ok := s.parents[id]
		if !ok || p != "" && !loops.ValidName(p) {
			return // unknown, or a parent no line of the entry could hold
		}
		ps[id] = p
	}
	s.store.Put(parentsName, parentsKey(s.loopsTree), encodeParents(s.loopsTree, ps))
}
