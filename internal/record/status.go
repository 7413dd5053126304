package record

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// The commit hooks' view of the record folder without a Git process
// (docs/record.md#commit-hooks): a process costs more than everything
// else the hook does, and in the common case — nothing changed outside
// the hooks — it has nothing to say. recordClean answers "git status
// would list nothing" from the index, HEAD's tree and the folder, read in
// process; any doubt sends the caller to `git status`.

// recordClean reports whether `git status` of the record folder and
// docket's file would list nothing: the index holds exactly HEAD's files
// there, every one of them is clean in the work tree by Git's own test
// (stat data, else content), and the work tree holds no other file there.
// false means "ask Git", never "tampered".
func (r *Record) recordClean() bool {
	head := r.repo.HeadCommit()
	if head == "" {
		return false
	}
	ix, err := r.repo.ReadIndex()
	if err != nil {
		return false
	}
	recRel, legacy := r.rel(r.p.RecordDir()), r.rel(r.p.LegacyRecord())
	entries, ok := ix.Under(recRel + "/")
	if !ok {
		return false
	}
	// When the index's cache-tree holds HEAD's tree for the record folder,
	// the index holds exactly HEAD's files there — the tree `git commit`
	// writes for it — and HEAD's trees are not read file by file.
	sameDir := false
	if id, ok := ix.CachedTree(recRel); ok {
		te, ok, err := r.repo.EntryAt(head, recRel)
		sameDir = err == nil && ok && te.Mode == 0o40000 && te.ID == id
	}
	tree := map[string]gitx.TreeFile{}
	if !sameDir {
		if tree, err = r.repo.FilesAt(head, recRel); err != nil {
			return false
		}
	}
	want := len(tree)
	if sameDir {
		want += len(entries)
	}
	if e := ix.Find(legacy); e != nil {
		entries = append(entries, e)
	}
	lt, err := r.repo.FilesAt(head, legacy)
	if err != nil {
		return false
	}
	for k, v := range lt {
		tree[k] = v
	}
	if want+len(lt) != len(entries) {
		return false
	}
	inIndex := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !sameDir || e.Name == legacy {
			t, ok := tree[e.Name]
			if !ok || t.ID != e.ID || t.Mode != e.Mode() {
				return false
			}
		}
		if clean, ok := ix.Clean(e, r.abs(e.Name)); !clean || !ok {
			return false
		}
		inIndex[e.Name] = true
	}
	if _, err := os.Lstat(r.p.LegacyRecord()); err == nil && !inIndex[legacy] {
		return false
	}
	return r.onlyIndexed(inIndex)
}

// onlyIndexed reports whether every file in the record folder is in
// the index (an untracked or ignored one is left to git status).
func (r *Record) onlyIndexed(inIndex map[string]bool) bool {
	err := filepath.WalkDir(r.p.RecordDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() || !inIndex[r.rel(path)] {
			return errNotClean
		}
		return nil
	})
	return err == nil || errors.Is(err, fs.ErrNotExist) && !r.anyUnder(inIndex)
}

var errNotClean = errors.New("not clean")

// anyUnder reports whether the index lists files in the record folder.
func (r *Record) anyUnder(inIndex map[string]bool) bool {
	legacy := r.rel(r.p.LegacyRecord())
	for k := range inIndex {
		if k != legacy {
			return true
		}
	}
	return false
}

// stageWriter stages writer w's folder as `git add -A` would, in process
// (docs/record.md#commit-hooks): the files the hook wrote, with their
// blobs, and the removal of the deltas a sealed segment replaced. It is
// used only where Git would stage nothing else — the status was clean
// before the hook wrote, and the folder is already tracked (so no ignore
// rule keeps it out) — and returns gitx.ErrIndexFallback when the index
// is one to leave to Git.
func (r *Record) stageWriter(w string) error {
	ix, err := r.repo.ReadIndex()
	if err != nil {
		return err
	}
	dirRel := r.rel(r.WriterDir(w)) + "/"
	entries, ok := ix.Under(dirRel)
	if !ok || len(entries) == 0 || ix.Find(r.rel(r.ChainPath(w))) != nil {
		return gitx.ErrIndexFallback
	}
	segs, strays, err := listSegs(r.WriterDir(w))
	if err != nil || len(strays) > 0 {
		return gitx.ErrIndexFallback
	}
	have := map[string]bool{}
	for _, s := range segs {
		have[dirRel+s.Name] = true
	}
	var gone []string
	for _, e := range entries {
		if !have[e.Name] {
			gone = append(gone, e.Name)
		}
		delete(have, e.Name) // tracked and, by the clean status, unchanged
	}
	for _, name := range gone {
		ix.Remove(name)
	}
	for name := range have {
		path := r.abs(name)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := r.repo.Stage(ix, name, path, b); err != nil {
			return err
		}
	}
	return ix.Write()
}
