package gate

import (
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/protect"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// objectMoves judges a git command that writes the work tree from objects
// — a stash, a revision, a branch merged or rebased onto — by what it
// would change in the protected places the work tree holds (the project
// folder, .claude/, .mcp.json, the hook managers' files): a change there
// asks, and so does a source git cannot read here
// (docs/threat-model.md#restores-from-objects). A command that moves nothing protected
// keeps the decision the loop gives it. Git itself compares, once per
// such clause, with no external diff or text conversion.
func (a *analysis) objectMoves(g *shell.Git, cl *shell.Clause) {
	sub := strings.ToLower(g.Sub)
	if sub == "pull" {
		if !hasOption(g, "abort", "quit", "continue") {
			a.c.unreadable("git pull merges commits it fetches first, which cannot be read before they arrive; fetch, then merge")
		}
		return
	}
	comparisons, what, lenient := gitSources(g, sub)
	if len(comparisons) == 0 || a.place.Project == nil || a.place.Root == "" {
		return
	}
	if g.Dir != "" || g.WorkTree != "" {
		a.c.unreadable("git " + what + " with another git dir or work tree: the gate cannot read what it brings")
		return
	}
	paths := a.protectedPathspecs(sub == "switch" || sub == "checkout")
	dir := a.cwd
	if cl.Dir != "" {
		dir = Resolve(cl.Dir, a.cwd, a.place.Home)
	}
	if g.Chdir != "" {
		dir = Resolve(g.Chdir, dir, a.place.Home)
	}
	for _, revs := range comparisons {
		for _, r := range revs {
			if strings.HasPrefix(r, "-") {
				a.c.unreadable("git " + what + " names " + r + ", which the gate does not read as a revision")
				return
			}
		}
		switch gitx.PathsChange(dir, revs, paths) {
		case gitx.Differs:
			a.c.unreadable("git " + what + " changes protected files (the loops, the signers, the hook wiring): a person decides")
			a.c.Texts = append(a.c.Texts, "change the loops", "write to "+a.projectRel())
			return
		case gitx.Unknown:
			if u := revs[len(revs)-1]; lenient || strings.HasSuffix(u, "^3") && !gitx.HasRev(dir, u) {
				// a stash without untracked files has no third parent; a
				// lenient source git cannot read is no source: the command
				// fails, or names paths the gate judges as writes
				continue
			}
			a.c.unreadable("git " + what + ": git cannot read " + strings.Join(revs, " ") + " here, so what it would change is unknown")
			return
		}
	}
}

// gitSources is what a git command brings into the work tree from
// objects, as the arguments of `git diff` comparisons (gitx.PathsChange),
// and the command's name for the reason. None for a command that moves
// nothing from objects, or whose paths the gate judges as writes
// (checkout and restore with paths, stash push). lenient says a source
// git cannot read moves nothing: the default stash when there is none (the
// command fails), a switch's word that names no commit (`git checkout
// README.md` restores a path). Elsewhere such a source asks, since a
// revision the command names may exist by the time it runs (`git fetch x
// && git merge FETCH_HEAD`).
func gitSources(g *shell.Git, sub string) (comparisons [][]string, what string, lenient bool) {
	ops := make([]string, 0, len(g.Operands))
	for _, w := range g.Operands {
		if w.Text != "--" {
			ops = append(ops, w.Text)
		}
	}
	has := func(names ...string) bool { return hasOption(g, names...) }
	if has("abort", "quit", "continue", "skip", "edit-todo", "show-current-patch") {
		return nil, "", false
	}
	switch sub {
	case "stash":
		if len(ops) == 0 || ops[0] != "pop" && ops[0] != "apply" && ops[0] != "branch" {
			return nil, "", false
		}
		s := "stash@{0}"
		switch {
		case ops[0] == "branch" && len(ops) > 2:
			s = ops[2]
		case ops[0] != "branch" && len(ops) > 1:
			s = ops[1]
		}
		// The stash's work tree against its base, and the untracked files
		// it saved (its third parent), when it has them.
		named := ops[0] == "branch" && len(ops) > 2 || ops[0] != "branch" && len(ops) > 1
		return [][]string{{s + "^1", s}, {gitx.EmptyTree, s + "^3"}}, "stash " + ops[0] + " " + s, !named
	case "reset":
		if !has("hard", "merge", "keep") {
			return nil, "", false
		}
		rev := "HEAD"
		if len(ops) > 0 {
			rev = ops[0]
		}
		return [][]string{{rev}}, "reset to " + rev, false
	case "merge":
		if len(ops) == 0 {
			ops = []string{"@{upstream}"}
		}
		for _, r := range ops {
			comparisons = append(comparisons, []string{"HEAD..." + r})
		}
		return comparisons, "merge " + strings.Join(ops, " "), false
	case "rebase":
		if has("root") {
			// every commit replayed onto nothing (or --onto): what moves is
			// the branch's own history, and --onto is compared below; with
			// no commit to replay the rebase fails
			ops = append([]string{"HEAD"}, ops...)
		}
		upstream, onto := "@{upstream}", ""
		if len(ops) > 0 {
			upstream = ops[0]
		}
		for _, o := range g.Options {
			if o.Name == "onto" && o.HasValue {
				onto = o.Value
			}
		}
		comparisons = [][]string{{"HEAD..." + upstream}}
		if onto != "" {
			comparisons = append(comparisons, []string{"HEAD", onto})
		}
		if len(ops) > 1 {
			comparisons = append(comparisons, []string{"HEAD", ops[1]})
		}
		return comparisons, "rebase onto " + upstream, has("root") && len(ops) == 1
	case "cherry-pick", "revert":
		for _, r := range ops {
			if a, b, ok := strings.Cut(r, ".."); ok {
				comparisons = append(comparisons, []string{orHEAD(a), orHEAD(strings.TrimPrefix(b, "."))})
			} else {
				comparisons = append(comparisons, []string{r + "^!"})
			}
		}
		return comparisons, sub + " " + strings.Join(ops, " "), false
	case "switch", "checkout":
		// no start point makes a branch at HEAD; a checkout of a revision
		// and paths (or paths after --) writes those paths, which the
		// gate judges as writes
		if pathspecs(g) || len(ops) == 0 || sub == "checkout" && len(ops) > 1 {
			return nil, "", false
		}
		start := ops[0]
		if start == "-" {
			start = "@{-1}"
		}
		return [][]string{{"HEAD", start}}, sub + " " + start, true
	}
	return nil, "", false
}

func orHEAD(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

func hasOption(g *shell.Git, names ...string) bool {
	for _, o := range g.Options {
		for _, n := range names {
			if o.Name == n && !o.Negated {
				return true
			}
		}
	}
	return false
}

// protectedPathspecs are the protected places a tree can hold, as
// pathspecs from the repository's root. noLoops leaves the loops folder
// out: switchLoops judges a switch's loops with its own reason.
func (a *analysis) protectedPathspecs(noLoops bool) []string {
	top := func(p string) string { return ":(top)" + p }
	out := []string{top(a.projectRel()), top(".claude"), top(protect.MCPConfigFile), top(protect.HuskyDir), top(protect.PreCommitConfig)}
	for _, f := range append(append([]string{}, protect.LefthookFiles...), protect.LefthookLocalFiles...) {
		out = append(out, top(f))
	}
	if noLoops {
		if rel, err := filepath.Rel(a.place.Root, a.place.Project.LoopsDir()); err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, ":(top,exclude)"+filepath.ToSlash(rel))
		}
	}
	return out
}

// projectRel is the project folder relative to the root.
func (a *analysis) projectRel() string {
	if rel, err := filepath.Rel(a.place.Root, a.place.Project.Dir); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return protect.ProjectDirNames[0]
}
