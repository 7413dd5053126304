package record

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// RefCheck compares one refs/gitwarrant/<writer> with its chain file.
type RefCheck struct {
	Ref     string
	Path    string // the chain file
	Current bool   // the writer of the checked-out branch
	Entries int64  // entries the ref holds
	Problem string // "" when the file agrees with the ref
}

// VerifyRefs checks every refs/gitwarrant/* ref against the work tree, so
// that deleting, truncating or editing committed entries is caught by
// `record verify` and not only by the next append or commit. The current
// branch's writer must extend its ref (docs/design.md#the-record); another branch's chain
// file may lag behind its ref (that writer kept recording on its branch),
// so it must only agree with the ref where both have lines. Outside Git
// there are no refs and nothing to check.
func (r *Record) VerifyRefs() ([]RefCheck, error) {
	if r.repo == nil {
		return nil, nil
	}
	out, err := r.repo.Git("for-each-ref", "--format=%(refname)", "refs/gitwarrant/")
	if err != nil {
		return nil, fmt.Errorf("listing refs/gitwarrant/*: %w", err)
	}
	cur, err := r.currentWriter()
	if err != nil {
		return nil, err
	}
	var checks []RefCheck
	for _, ref := range strings.Fields(string(out)) {
		w := strings.TrimPrefix(ref, "refs/gitwarrant/")
		c, err := r.checkRef(ref, w, w == cur)
		if err != nil {
			return nil, err
		}
		checks = append(checks, c)
	}
	return checks, nil
}

func (r *Record) checkRef(ref, writer string, current bool) (RefCheck, error) {
	path := r.ChainPath(writer)
	c := RefCheck{Ref: ref, Path: path, Current: current}
	cr, err := r.repo.ReadChainRef(ref)
	if err != nil {
		return c, err
	}
	c.Entries = cr.Lines
	if !current {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return c, nil // this branch never saw that writer's entries
		}
	}
	err = r.extendsRef(cr, path, r.rel(path))
	if err == nil {
		return c, nil
	}
	var te *tamperErr
	if !errors.As(err, &te) {
		return c, err
	}
	if !current && te.short {
		return c, nil // a prefix of the ref: the writer recorded more elsewhere
	}
	c.Problem = err.Error()
	return c, nil
}
