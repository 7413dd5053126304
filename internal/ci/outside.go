package ci

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/go-git/go-git/v5/plumbing"
)

// Unreviewed is a path the change touches that gitwarrant may read as a
// warrant but this gate does not compare (docs/ci.md#one-project-folder):
// it fails the gate.
type Unreviewed struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// projectNames are the entries of a project folder that gitwarrant reads
// by name; a case variant of one is what a case-insensitive file system
// opens for it.
var projectNames = []string{"loops", "record", "record.jsonl", "allowed_signers"}

// fsFold is name as a file system that is lax about names may take it:
// without the code points HFS+ ignores in a name (the zero-width and
// direction marks git refuses in .git for the same reason), without the
// trailing dots and spaces Windows drops, and with the Turkish ı and İ,
// which an upper-casing or lower-casing compare folds into i, made i.
// Case itself is left to strings.EqualFold.
func fsFold(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 0x200c && r <= 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x206a && r <= 0x206f, r == 0xfeff:
			return -1
		case r == 'ı' || r == 'İ':
			return 'i'
		}
		return r
	}, name)
	return strings.TrimRight(name, ". ")
}

// sameName reports whether a file system may open name for want.
func sameName(name, want string) bool { return strings.EqualFold(fsFold(name), want) }

// unreviewed walks what changed between the merge base and head — only
// the subtrees whose ids differ, as `git diff` does — for three kinds of
// path the comparison would otherwise never see:
//
//   - another project folder: a directory named .gitwarrant or docket's
//     .docket (in any case) other than projRel — both are what the project
//     finder takes (internal/project). An agent working below it finds it
//     first by walking up, and takes its warrant from there. Folders in
//     others are compared by gates of their own and are left out, and so
//     is a .docket deleted beside the compared .gitwarrant (movedOff).
//   - a submodule added or moved to another commit: what it holds is
//     another repository's, which the gate cannot read, and agents
//     working in it obey any project folder there. Naming its
//     .gitwarrant (or .docket) in others says its own repository gates it.
//   - a case variant, inside projRel, of a name gitwarrant reads: `LOOPS`
//     for loops, `x.LOOP.md` for x.loop.md. The diff reads exact names, a
//     case-insensitive file system opens the variant.
func (r *Report) unreviewed(repo *gitx.Repo, projRel string, others []string, mb, head plumbing.Hash) error {
	mt, err := repo.TreeAt(mb, "")
	if err != nil {
		return err
	}
	ht, err := repo.TreeAt(head, "")
	if err != nil {
		return err
	}
	return r.walkChanged(repo, projRel, others, "", treeEntry{id: mt, tree: true}, treeEntry{id: ht, tree: true})
}

type treeEntry struct {
	id   plumbing.Hash
	tree bool
	sub  bool // a submodule (gitlink): a commit of another repository
}

// entries lists tree h (zero: none) by name.
func entries(repo *gitx.Repo, h plumbing.Hash) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	err := repo.EachTreeEntry(h, func(mode, name []byte, id plumbing.Hash) error {
		out[string(name)] = treeEntry{id, gitx.IsTreeMode(mode), string(mode) == "160000"}
		return nil
	})
	return out, err
}

// both lists the folders x (in the merge base) and y (in head), each
// empty where it is not a folder.
func both(repo *gitx.Repo, x, y treeEntry) (map[string]treeEntry, map[string]treeEntry, error) {
	ex, err := entries(repo, treeOf(x))
	if err != nil {
		return nil, nil, err
	}
	ey, err := entries(repo, treeOf(y))
	return ex, ey, err
}

func (r *Report) walkChanged(repo *gitx.Repo, projRel string, others []string, dir string, a, b treeEntry) error {
	ea, eb, err := both(repo, a, b)
	if err != nil {
		return err
	}
	names := slices.AppendSeq(slices.Collect(maps.Keys(ea)), maps.Keys(eb))
	slices.Sort(names)
	for _, n := range slices.Compact(names) {
		x, y := ea[n], eb[n]
		if x == y {
			continue
		}
		p := path.Join(dir, n)
		switch {
		case isProjectFolder(n) && p != projRel:
			if !slices.Contains(others, p) && !movedOff(n, dir, projRel, y, eb) {
				r.Unreviewed = append(r.Unreviewed, Unreviewed{Path: p, Why: fmt.Sprintf(
					"another project folder: an agent working in %s takes its warrant from here, and this gate compares %s only — compare it in a gate of its own (gitwarrant ci --dir %s) and name it here with --other-gate %s, or remove it",
					orRoot(dir), projRel, orRoot(dir), p)})
			}
			continue
		case y.sub && !slices.Contains(others, path.Join(p, project.DirName)) && !slices.Contains(others, path.Join(p, project.LegacyDirName)):
			r.Unreviewed = append(r.Unreviewed, Unreviewed{Path: p, Why: fmt.Sprintf(
				"a submodule: an agent working in %s takes its warrant from any project folder its commit holds, which is not in this repository and this gate cannot read — compare it in a gate in the submodule's own repository and name it here with --other-gate %s, or remove it",
				p, path.Join(p, project.DirName))})
			continue
		case p == projRel:
			if err := r.projectCase(repo, projRel, x, y); err != nil {
				return err
			}
			continue
		}
		if x.tree || y.tree {
			if err := r.walkChanged(repo, projRel, others, p, x, y); err != nil {
				return err
			}
		}
	}
	return nil
}

// projectCase looks inside the compared project folder (and its loops
// folder) for case variants of the names gitwarrant reads.
func (r *Report) projectCase(repo *gitx.Repo, projRel string, x, y treeEntry) error {
	if !y.tree {
		return nil // not a folder in head: the diff refuses it (NonTreeAt)
	}
	base, head, err := eachChanged(repo, x, y, func(n string) {
		for _, want := range projectNames {
			if n != want && sameName(n, want) {
				r.Unreviewed = append(r.Unreviewed, caseVariant(path.Join(projRel, n), path.Join(projRel, want)))
			}
		}
	})
	if err != nil {
		return err
	}
	lh, lb := head["loops"], base["loops"]
	if !lh.tree || lh == lb {
		return nil
	}
	_, _, err = eachChanged(repo, lb, lh, func(n string) {
		if want, ok := loopVariant(n); ok {
			r.Unreviewed = append(r.Unreviewed, caseVariant(path.Join(projRel, "loops", n), path.Join(projRel, "loops", want)))
		}
	})
	return err
}

// eachChanged lists folders x (merge base) and y (head) and calls fn, in
// name order, with each entry of y that x does not hold as it is.
func eachChanged(repo *gitx.Repo, x, y treeEntry, fn func(name string)) (map[string]treeEntry, map[string]treeEntry, error) {
	ex, ey, err := both(repo, x, y)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range slices.Sorted(maps.Keys(ey)) {
		if ey[n] != ex[n] {
			fn(n)
		}
	}
	return ex, ey, nil
}

// loopVariant reports whether name is a loop file's name in other case
// (`x.LOOP.md`, `X.loop.md`), and the loop file's name it stands for.
func loopVariant(name string) (string, bool) {
	low := strings.ToLower(fsFold(name))
	if low == name || !strings.HasSuffix(low, loops.FileSuffix) {
		return "", false
	}
	return low, loops.ValidName(strings.TrimSuffix(low, loops.FileSuffix))
}

func caseVariant(got, want string) Unreviewed {
	if strings.EqualFold(path.Base(got), path.Base(want)) {
		return Unreviewed{Path: got, Why: fmt.Sprintf(
			"%s in other case: the diff reads %s only, but a case-insensitive file system (macOS, Windows) opens this file for it — rename it to %s or remove it", path.Base(want), want, path.Base(want))}
	}
	return Unreviewed{Path: got, Why: fmt.Sprintf(
		"%s in another spelling: the diff reads %s only, but a file system that ignores case, invisible code points (HFS+) or trailing dots and spaces (Windows) opens this file for it — rename it to %s or remove it", path.Base(want), want, path.Base(want))}
}

// isProjectFolder reports whether name is one the project finder takes
// for a project folder on some file system.
func isProjectFolder(name string) bool {
	return sameName(name, project.DirName) || sameName(name, project.LegacyDirName)
}

// movedOff reports whether name, in folder dir whose head entries are
// head, is a .docket deleted beside the compared .gitwarrant: walking up
// takes .gitwarrant first there, and DOCKET_DIR naming the deleted folder
// finds nothing, so moving off docket gives no warrant. Adding to or
// editing such a .docket is not left out: DOCKET_DIR may name it.
func movedOff(name, dir, projRel string, y treeEntry, head map[string]treeEntry) bool {
	return y == treeEntry{} && sameName(name, project.LegacyDirName) && path.Join(dir, project.DirName) == projRel && head[project.DirName].tree
}

func treeOf(e treeEntry) plumbing.Hash {
	if e.tree {
		return e.id
	}
	return plumbing.ZeroHash
}

func orRoot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// CleanOtherGates checks --other-gate folders: each a clean relative path
// whose last part is exactly .gitwarrant (or docket's .docket), not the
// compared folder itself.
func CleanOtherGates(in []string, projRel string) ([]string, error) {
	var out []string
	for _, g := range in {
		p := strings.TrimSuffix(strings.ReplaceAll(strings.TrimSpace(g), `\`, "/"), "/")
		switch {
		case p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
			return nil, fmt.Errorf("--other-gate %q is not a clean path relative to the repository root", g)
		case path.Base(p) != project.DirName && path.Base(p) != project.LegacyDirName:
			return nil, fmt.Errorf("--other-gate %q does not name a .gitwarrant folder", g)
		case p == projRel:
			return nil, fmt.Errorf("--other-gate %q is the folder this gate compares", g)
		case path.Dir(p) == path.Dir(projRel):
			return nil, fmt.Errorf("--other-gate %q is beside the folder this gate compares (%s): the finder takes one or the other there, and this gate compares both", g, projRel)
		}
		out = append(out, p)
	}
	return out, nil
}
