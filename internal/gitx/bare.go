package gitx

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// Open finds the repository holding dir: a work tree (as Discover) or a
// bare repository, which the CI gate reads from Git objects alone
// (docs/ci.md#what-is-compared). A bare repository's WorkTree is its git
// dir, where git commands run. SHA-256 and reftable repositories are
// refused as Discover refuses them.
func Open(dir string) (*Repo, error) {
	r, err := Discover(dir)
	if err == nil || errors.Is(err, ErrUnsupported) {
		return r, err
	}
	cmd := exec.Command("git", "rev-parse", "--is-bare-repository", "--absolute-git-dir")
	cmd.Dir = dir
	out, gerr := cmd.Output()
	if gerr != nil {
		return nil, err
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 || lines[0] != "true" {
		return nil, err
	}
	gd := filepath.Clean(lines[1])
	if ferr := checkFormat(gd); ferr != nil {
		return nil, ferr
	}
	return &Repo{WorkTree: gd, GitDir: gd, CommonDir: gd}, nil
}

// FetchHistory says how to fetch the history a shallow clone left out,
// in CI and locally, with the line the workflow in docs/ci.md gives
// actions/checkout.
const FetchHistory = "fetch the whole history: in GitHub Actions, give actions/checkout `with: fetch-depth: 0`, as gitwarrant's README workflow does; locally, `git fetch --unshallow`"

// ErrShallow is a revision a shallow clone does not hold: it may be in
// the history the clone left out.
var ErrShallow = errors.New("the clone is shallow (actions/checkout fetches one commit unless told otherwise), so the commit may be in the history it left out: " + FetchHistory)

// IsShallow reports whether the repository is a shallow clone.
func (r *Repo) IsShallow() bool {
	out, err := r.Git("rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// MergeBase returns the merge base of two commits.
func (r *Repo) MergeBase(a, b string) (string, error) {
	out, err := r.Git("merge-base", a, b)
	if err != nil {
		return "", fmt.Errorf("%s and %s have no merge base: %v", a, b, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// RangeCommit is one commit of a change, with the values of its
// Warrant-Head trailers.
type RangeCommit struct {
	ID   string
	Pins []string
}

// MergeBaseRange returns the merge base of base and head and the commits
// of head not in base (merge-base..head), each with its Warrant-Head
// trailer values, newest first, in one `git log --boundary head ^base`
// when it can: the commits of head not in base are those of
// merge-base..head when the merge base is unique, and a single boundary
// commit is then that merge base (every common ancestor is reachable from
// it). Several boundaries (the change merged the base branch, a
// criss-cross), or none, leave the answer to `git merge-base` and a second
// `git log` (docs/ci.md#what-is-compared).
func (r *Repo) MergeBaseRange(base, head string) (string, []RangeCommit, error) {
	out, err := r.Git("log", "--boundary", rangeFormat, head, "^"+base, "--")
	if err != nil {
		return "", nil, err
	}
	commits, boundary := parseRange(out)
	switch {
	case len(commits) == 0:
		return head, nil, nil // head is base or one of its ancestors
	case len(boundary) == 1:
		return boundary[0], commits, nil
	}
	mb, err := r.MergeBase(base, head)
	if err != nil {
		return "", nil, err
	}
	if out, err = r.Git("log", rangeFormat, mb+".."+head, "--"); err != nil {
		return "", nil, err
	}
	commits, _ = parseRange(out)
	return mb, commits, nil
}

// rangeFormat: a boundary mark, the id and the trailer values, NUL, US
// and RS separated.
const rangeFormat = "--format=%m%H%x00%(trailers:key=" + HeadTrailer + ",valueonly,unfold,separator=%x1f)%x1e"

func parseRange(out []byte) (commits []RangeCommit, boundary []string) {
	for _, rec := range strings.Split(string(out), "\x1e") {
		id, vals, ok := strings.Cut(strings.TrimSpace(rec), "\x00")
		if !ok || len(id) < 2 {
			continue
		}
		if id[0] == '-' {
			boundary = append(boundary, id[1:])
			continue
		}
		c := RangeCommit{ID: strings.TrimLeft(id, "<>")}
		if strings.TrimSpace(vals) != "" {
			c.Pins = strings.Split(vals, "\x1f")
		}
		commits = append(commits, c)
	}
	return commits, boundary
}
