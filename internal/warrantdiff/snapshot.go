// Package warrantdiff is the semantic warrant diff: what two revisions of a
// project's loops and allowed_signers mean for an agent's authority, each
// change classified as a widening or a narrowing and, for a widening, the
// signed amend that covers it (docs/signing.md#the-warrant-diff). The diff
// command and the CI gate share it.
package warrantdiff

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/go-git/go-git/v5/plumbing"
)

// Snapshot is a project's warrant at one revision, or in the work tree.
// Loop files are identified by blob id and parsed only when a comparison
// needs them: a diff touching 3 of 100 loops parses 6 files.
type Snapshot struct {
	Label   string // "work tree" or the revision as given
	Signers []byte // allowed_signers; empty when absent
	// Errors are loop files that did not parse, in the order met.
	Errors []error

	repo   *gitx.Repo
	rev    string            // "" for the work tree
	dir    string            // the project directory (relative, at a revision)
	blobs  map[string]string // loop name → blob id (hex)
	data   map[string][]byte // loop name → bytes, for the work tree
	parsed map[string]*loops.Loop
	failed map[string]bool
	// preparsed holds what prefetchParents parsed ahead, taken by Loop
	// (which keeps the order of Errors).
	preparsed map[string]preparsed
	// parents maps a loop file's blob id to the loop it extends ("" for
	// none). Compare shares one map between base and head: a file that
	// did not change is read once, from whichever side is cheaper.
	parents map[string]string
	// chains maps each chain file (work-tree relative, slash-separated)
	// to its blob id at a revision, or to "" in the work tree.
	chains map[string]string
	sizes  map[string]int64 // chain sizes, in the work tree
	// folders holds each writer's chain kept as a folder of segment files
	// (segments.go), listed in the work tree; at a revision, folderTrees
	// holds each folder's tree id instead, listed only when it differs
	// from the other side's.
	folders     map[string][]seg
	folderTrees map[string]plumbing.Hash
	commit      plumbing.Hash // zero for the work tree
	// loopsTree is the loops folder's tree id at a revision (zero in the
	// work tree), and store the parses and parents kept across processes
	// (cache.go; nil: none).
	loopsTree   plumbing.Hash
	store       loops.Store
	parentsKept bool // the store held the parent of every loop file
}

// FromRev reads the snapshot at rev from Git objects; projRel is the
// project directory relative to the work tree (".gitwarrant").
func FromRev(repo *gitx.Repo, projRel, rev string) (*Snapshot, error) {
	c, err := repo.ResolveCommit(rev)
	if err != nil {
		return nil, err
	}
	s := newSnapshot(repo, rev)
	s.rev, s.dir, s.commit = c.String(), projRel, c
	top, err := repo.DirAt(c, projRel)
	if err == nil && len(top) == 0 {
		err = checkLoopsFolder(repo, c, rev, projRel)
	}
	if err != nil {
		return nil, err
	}
	if id, ok := top["allowed_signers"]; ok {
		if s.Signers, err = repo.BlobAt(id, path.Join(projRel, "allowed_signers")); err != nil {
			return nil, err
		}
	}
	ls, err := repo.DirAt(c, path.Join(projRel, "loops"))
	if err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		if err := checkLoopsFolder(repo, c, rev, projRel); err != nil {
			return nil, err
		}
	}
	for name, id := range ls {
		if n, ok := strings.CutSuffix(name, loops.FileSuffix); ok && !strings.HasPrefix(name, ".#") {
			s.blobs[n] = id
		}
	}
	if len(ls) > 0 {
		if s.loopsTree, err = repo.TreeAt(c, path.Join(projRel, "loops")); err != nil {
			return nil, err
		}
	}
	rec, err := repo.TreeAt(c, path.Join(projRel, "record"))
	if err != nil {
		return nil, err
	}
	err = repo.EachTreeEntry(rec, func(mode, name []byte, id plumbing.Hash) error {
		switch {
		case bytes.HasSuffix(name, []byte(".jsonl")):
			s.chains[path.Join(projRel, "record", string(name))] = id.String()
		case !bytes.HasPrefix(name, []byte(".")) && gitx.IsTreeMode(mode):
			s.folderTrees[string(name)] = id
		}
		return nil
	})
	if err != nil {
		// not a tree (a file named record): no chains, as DirAt reads it
		clear(s.chains)
		clear(s.folderTrees)
	}
	return s, nil
}

// checkLoopsFolder refuses a revision whose project or loops folder is a
// symbolic link (or a file): Git stores the link, not the loops, so the
// diff would read no loops there, while loading follows the link to
// whatever loops it names.
func checkLoopsFolder(repo *gitx.Repo, c plumbing.Hash, rev, projRel string) error {
	p, err := repo.NonTreeAt(c, path.Join(projRel, "loops"))
	if err != nil || p == "" {
		return err
	}
	return fmt.Errorf("%s: %s is a symbolic link or a file, not a folder: loading would follow a link to loops that are not read from Git here — make %s a folder of loop files",
		rev, p, path.Join(projRel, "loops"))
}

func newSnapshot(repo *gitx.Repo, label string) *Snapshot {
	return &Snapshot{Label: label, repo: repo, blobs: map[string]string{}, data: map[string][]byte{},
		parsed: map[string]*loops.Loop{}, preparsed: map[string]preparsed{}, failed: map[string]bool{}, parents: map[string]string{}, chains: map[string]string{}, sizes: map[string]int64{}, folders: map[string][]seg{}, folderTrees: map[string]plumbing.Hash{}}
}

// FromWorkTree reads the snapshot from the files on disk under projDir.
func FromWorkTree(repo *gitx.Repo, projDir string) (*Snapshot, error) {
	s := newSnapshot(repo, "work tree")
	s.dir = projDir
	entries, _ := os.ReadDir(filepath.Join(projDir, "loops"))
	type file struct {
		name, id string
		b        []byte
		err      error
	}
	var files []*file
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), loops.FileSuffix); ok && !strings.HasPrefix(e.Name(), ".#") {
			files = append(files, &file{name: n})
		}
	}
	// read (under loading's rules: no link, a regular file, its size
	// bounded, docs/loop-format.md#frontmatter) and hashed on every CPU
	parallel(len(files), func(i int) {
		f := files[i]
		if f.b, f.err = loops.ReadFile(filepath.Join(projDir, "loops", f.name+loops.FileSuffix)); f.err == nil {
			f.id = strings.TrimPrefix(loops.BlobID(f.b), "git:")
		}
	})
	for _, f := range files {
		if f.err != nil {
			s.Errors = append(s.Errors, f.err)
			continue
		}
		s.data[f.name] = f.b
		s.blobs[f.name] = f.id
	}
	if b, err := os.ReadFile(filepath.Join(projDir, "allowed_signers")); err == nil {
		s.Signers = b
	}
	s.addFolderWorkTree(filepath.Join(projDir, "record"))
	matches, _ := filepath.Glob(filepath.Join(projDir, "record", "*.jsonl"))
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil {
			continue
		}
		rel, err := repo.Rel(m)
		if err != nil {
			continue
		}
		s.chains[rel] = ""
		s.sizes[rel] = fi.Size()
	}
	return s, nil
}

// Names lists the loops present.
func (s *Snapshot) Names() []string {
	out := make([]string, 0, len(s.blobs))
	for n := range s.blobs {
		out = append(out, n)
	}
	return out
}

// Has reports whether loop name exists (whether or not it parses).
func (s *Snapshot) Has(name string) bool { _, ok := s.blobs[name]; return ok }

// Loop parses loop name once; nil when absent or when it does not parse
// (the error is added to Errors).
func (s *Snapshot) Loop(name string) *loops.Loop {
	if l, ok := s.parsed[name]; ok || s.failed[name] {
		return l
	}
	if _, ok := s.blobs[name]; !ok {
		return nil
	}
	l, err := s.parse(name)
	if err != nil {
		s.failed[name] = true
		s.Errors = append(s.Errors, err)
		return nil
	}
	s.parsed[name] = l
	return l
}

// preparsed is a loop parsed ahead of its turn.
type preparsed struct {
	l   *loops.Loop
	err error
}

// parse parses loop name, or takes what was parsed ahead.
func (s *Snapshot) parse(name string) (*loops.Loop, error) {
	if p, ok := s.preparsed[name]; ok {
		delete(s.preparsed, name)
		return p.l, p.err
	}
	b, err := s.bytesOf(name)
	if err != nil {
		return nil, err
	}
	return loops.ParseStored(s.store, s.loopPath(name), b)
}

// loopPath names loop name's file in messages.
func (s *Snapshot) loopPath(name string) string {
	return s.Label + ":" + path.Join(s.dir, "loops", name+loops.FileSuffix)
}

// bytesOf returns a loop file's bytes (read once).
func (s *Snapshot) bytesOf(name string) ([]byte, error) {
	if b, ok := s.data[name]; ok {
		return b, nil
	}
	id, ok := s.blobs[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	b, err := s.repo.BlobAt(id, s.loopFile(name))
	if err == nil {
		s.data[name] = b
	}
	return b, err
}

// loopFile is loop name's file at a revision, relative to the work tree.
func (s *Snapshot) loopFile(name string) string {
	return path.Join(s.dir, "loops", name+loops.FileSuffix)
}
