package gitx

import (
	"fmt"
	"os"
	"strings"
)

// HeadTrailer is the key that pins a chain head in a user's commit
// message (docs/design.md#the-record "Anchored in the branch"):
//
//	Warrant-Head: <chain path> sha256:<hash>
const HeadTrailer = "Warrant-Head"

// Pin is one pinned chain head.
type Pin struct {
	Commit string // the commit whose message carries it ("" before commit)
	Path   string // chain file path, relative to the work tree
	Hash   string // "sha256:<hex>"
}

// SetHeadTrailers pins heads in a commit message file. A Warrant-Head for
// the same chain already in the message (an amend re-using the old
// message) is replaced, never duplicated; placement, comments and the
// scissors line are left to `git interpret-trailers`, so the message keeps
// Git's trailer conventions.
func (r *Repo) SetHeadTrailers(msgFile string, pins []Pin) error {
	if len(pins) == 0 {
		return nil
	}
	b, err := os.ReadFile(msgFile)
	if err != nil {
		return err
	}
	paths := map[string]bool{}
	for _, p := range pins {
		paths[p.Path] = true
	}
	msg := dropHeadTrailers(string(b), paths)
	var add []string
	for _, p := range pins {
		add = append(add, fmt.Sprintf("%s: %s %s", HeadTrailer, p.Path, p.Hash))
	}
	if out, ok := addTrailers(msg, add); ok && r.plainTrailerConfig() {
		return os.WriteFile(msgFile, []byte(out), 0o644)
	}
	if err := os.WriteFile(msgFile, []byte(msg), 0o644); err != nil {
		return err
	}
	args := []string{"interpret-trailers", "--in-place", "--if-exists", "addIfDifferent"}
	for _, p := range pins {
		args = append(args, "--trailer", fmt.Sprintf("%s: %s %s", HeadTrailer, p.Path, p.Hash))
	}
	_, err = r.Git(append(args, msgFile)...)
	return err
}

// scissors is the line below which `git commit -v` puts the diff.
const scissors = "# ------------------------ >8 ------------------------"

// dropHeadTrailers removes Warrant-Head lines for the given chain paths
// above the scissors line.
func dropHeadTrailers(msg string, paths map[string]bool) string {
	lines := strings.SplitAfter(msg, "\n")
	out := lines[:0]
	below := false
	for _, l := range lines {
		if strings.TrimRight(l, "\n") == scissors {
			below = true
		}
		if !below {
			if p, ok := parseHeadValue(strings.TrimPrefix(l, HeadTrailer+":"), l); ok && paths[p.Path] {
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "")
}

// parseHeadValue parses "<path> sha256:<hex>"; line is the whole line, and
// must start with the trailer key.
func parseHeadValue(value, line string) (Pin, bool) {
	if !strings.HasPrefix(line, HeadTrailer+":") {
		return Pin{}, false
	}
	f := strings.Fields(value)
	if len(f) != 2 || !strings.HasPrefix(f[1], "sha256:") {
		return Pin{}, false
	}
	return Pin{Path: f[0], Hash: f[1]}, true
}

// PinnedHeads lists every Warrant-Head in the history of rev (newest
// first), read with git's own trailer parser. A repository with no commits
// has none.
func (r *Repo) PinnedHeads(rev string) ([]Pin, error) {
	if _, err := r.Git("rev-parse", "--verify", "-q", rev+"^{commit}"); err != nil {
		return nil, nil
	}
	out, err := r.Git("log", "--format=%H%x00%(trailers:key="+HeadTrailer+",valueonly,unfold,separator=%x1f)%x1e", rev)
	if err != nil {
		return nil, err
	}
	var pins []Pin
	for _, rec := range strings.Split(string(out), "\x1e") {
		commit, vals, ok := strings.Cut(strings.TrimSpace(rec), "\x00")
		if !ok || vals == "" {
			continue
		}
		for _, v := range strings.Split(vals, "\x1f") {
			if p, ok := parseHeadValue(v, HeadTrailer+":"+v); ok {
				p.Commit = commit
				pins = append(pins, p)
			}
		}
	}
	return pins, nil
}
