package warrantdiff

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Result is a whole warrant diff: the two snapshots, every change with
// its covering amend, and the amends found.
type Result struct {
	Base, Head *Snapshot
	Changes    []Change
	Amends     []Found
}

// Run diffs base against head — a revision, or the work tree at
// projDir when headRev is "" — reading revisions from Git objects and
// verifying each new amend against base's allowed_signers: the one call
// the diff command and the CI gate make. projRel is the project directory
// relative to the work tree. store keeps parses and parents across
// processes (cache.go); nil keeps none.
func Run(repo *gitx.Repo, projRel, projDir, baseRev, headRev string, store loops.Store) (*Result, error) {
	base, err := FromRev(repo, projRel, baseRev)
	if err != nil {
		return nil, err
	}
	var head *Snapshot
	if headRev != "" {
		head, err = FromRev(repo, projRel, headRev)
	} else {
		head, err = FromWorkTree(repo, projDir)
	}
	if err != nil {
		return nil, err
	}
	base.store, head.store = store, store
	signers, err := ParseSigners(base)
	if err != nil {
		return nil, fmt.Errorf("the base's allowed_signers cannot be read, so no amend can be verified: %w", err)
	}
	// The new amends are read and verified while the loops are compared:
	// the two touch different parts of the snapshots (the record, the
	// loops) and the repository's readers are safe to share.
	type amends struct {
		found []Found
		err   error
	}
	ch := make(chan amends, 1)
	go func() {
		f, err := NewAmends(repo, base, head, signers)
		ch <- amends{f, err}
	}()
	res := &Result{Base: base, Head: head, Changes: Compare(base, head)}
	a := <-ch
	if a.err != nil {
		return nil, a.err
	}
	res.Amends = a.found
	Attach(res.Changes, res.Amends)
	return res, nil
}

// Errors lists the loop files of either side that did not parse.
func (r *Result) Errors() []error {
	return append(append([]error(nil), r.Base.Errors...), r.Head.Errors...)
}
