// Package warrantdiff is the semantic warrant diff: what two revisions of a
// project's loops and allowed_signers mean for an agent's authority, each
// change classified as a widening or a narrowing and, for a widening, the
// signed amend that covers it (docs/signing.md#the-warrant-diff). The diff
// command and the CI gate share it.
package warrantdiff

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Snapshot is a project's warrant at one revision, or in the work tree.
type Snapshot struct {
	Label   string                 // "work tree" or the revision
	Loops   map[string]*loops.Loop // by name
	Errors  []error                // loop files that did not parse
	Signers []byte                 // allowed_signers; nil when absent
	// Chains maps each chain file (work-tree relative, slash-separated) to
	// its size, so new entries can be read from where the base ends.
	Chains map[string]int64
	blobs  map[string]string // chain file → blob id, at a revision
	rev    string            // "" for the work tree
	root   string            // the work tree, to read chain files from
}

// FromRev reads the snapshot at rev from Git objects; projRel is the
// project directory relative to the work tree (".gitwarrant").
func FromRev(repo *gitx.Repo, projRel, rev string) (*Snapshot, error) {
	if _, err := repo.Git("rev-parse", "-q", "--verify", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("%s is not a commit in this repository — give a branch, tag or commit id", rev)
	}
	s := &Snapshot{Label: rev, Loops: map[string]*loops.Loop{}, Chains: map[string]int64{}, blobs: map[string]string{}, rev: rev}
	files, err := repo.ListTree(rev, projRel)
	if err != nil {
		return nil, err
	}
	var ids []string
	var loopFiles []gitx.TreeFile
	signersPath := path.Join(projRel, "allowed_signers")
	for _, f := range files {
		switch {
		case path.Dir(f.Path) == path.Join(projRel, "loops") && strings.HasSuffix(f.Path, loops.FileSuffix):
			loopFiles = append(loopFiles, f)
			ids = append(ids, f.Blob)
		case f.Path == signersPath:
			ids = append(ids, f.Blob)
		case path.Dir(f.Path) == path.Join(projRel, "record") && strings.HasSuffix(f.Path, ".jsonl"):
			s.Chains[f.Path] = f.Size
			s.blobs[f.Path] = f.Blob
		}
	}
	blobs, err := repo.ReadBlobs(ids)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Path == signersPath {
			s.Signers = blobs[f.Blob]
			if s.Signers == nil {
				s.Signers = []byte{}
			}
		}
	}
	for _, f := range loopFiles {
		s.add(loops.Parse(rev+":"+f.Path, blobs[f.Blob]))
	}
	return s, nil
}

// FromWorkTree reads the snapshot from the files on disk.
func FromWorkTree(repo *gitx.Repo, projDir string) (*Snapshot, error) {
	s := &Snapshot{Label: "work tree", Loops: map[string]*loops.Loop{}, Chains: map[string]int64{}}
	if repo != nil {
		s.root = repo.WorkTree
	}
	ls, errs := loops.LoadDir(filepath.Join(projDir, "loops"))
	if len(errs) == 1 && len(ls) == 0 {
		if _, err := os.Stat(filepath.Join(projDir, "loops")); errors.Is(err, os.ErrNotExist) {
			errs = nil
		}
	}
	for _, l := range ls {
		s.add(l, nil)
	}
	s.Errors = append(s.Errors, errs...)
	if b, err := os.ReadFile(filepath.Join(projDir, "allowed_signers")); err == nil {
		s.Signers = b
	}
	matches, _ := filepath.Glob(filepath.Join(projDir, "record", "*.jsonl"))
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil {
			continue
		}
		rel := m
		if repo != nil {
			if r, err := repo.Rel(m); err == nil {
				rel = r
			}
		}
		s.Chains[rel] = fi.Size()
	}
	return s, nil
}

func (s *Snapshot) add(l *loops.Loop, err error) {
	if err != nil {
		s.Errors = append(s.Errors, err)
		return
	}
	s.Loops[l.Name] = l
}
