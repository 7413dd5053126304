package shell

import "strings"

// git's effects on the working tree: explicit paths (checkout/restore --
// paths, rm, mv), whole-tree rewrites (checkout of a branch, reset --hard,
// merge, pull, rebase, apply …) as vague writes of the work tree.
func (e *effects) git(args []Word, texts []string) {
	g, ok := e.c.Git()
	if !ok {
		return
	}
	root := Word{Text: ".", Literal: true, Parts: []string{"."}}
	if g.Chdir != "" {
		root = Word{Text: g.Chdir, Literal: true, Parts: []string{g.Chdir}}
	}
	if g.WorkTree != "" {
		root = Word{Text: g.WorkTree, Literal: true, Parts: []string{g.WorkTree}}
	}
	under := func(w Word) Word {
		if root.Text == "." || strings.HasPrefix(w.Text, "/") {
			return w
		}
		w.Text = strings.TrimRight(root.Text, "/") + "/" + w.Text
		return w
	}
	if g.Dir != "" {
		// a separate git dir: its config and hooks may be written
		e.tree("write", Word{Text: g.Dir, Literal: true, Parts: []string{g.Dir}}, "git --git-dir", true)
	}
	has := func(names ...string) bool {
		for _, o := range g.Options {
			for _, n := range names {
				if o.Name == n && !o.Negated {
					return true
				}
			}
		}
		return false
	}
	// A pathspec restored, reset or stashed names everything below it:
	// `git checkout old -- .` rewrites .gitwarrant too.
	pathspecs := func(ws []Word) {
		for _, w := range ws {
			for _, x := range w.expand() {
				e.add("write", under(x), "git "+g.Sub).Tree = true
			}
		}
	}
	// diff, log, show, format-patch … write --output=FILE
	for i, a := range g.Args {
		t := a.Text
		switch {
		case strings.HasPrefix(t, "--output="):
			e.add("write", under(withText(a, strings.TrimPrefix(t, "--output="))), "git "+g.Sub+" --output")
		case t == "--output" && i+1 < len(g.Args):
			e.add("write", under(g.Args[i+1]), "git "+g.Sub+" --output")
		case g.Sub == "format-patch" && (t == "-o" || t == "--output-directory") && i+1 < len(g.Args):
			e.tree("write", under(g.Args[i+1]), "git format-patch -o", false)
		}
	}
	switch g.Sub {
	case "checkout":
		// a new branch at HEAD (checkout -b x) changes no file
		if has("b", "B") && len(g.Operands) == 0 {
			return
		}
		// operands are a branch or paths; each is taken as a path too
		pathspecs(g.Operands)
		e.tree("write", root, "git checkout", true)
	case "restore":
		if has("staged", "S") && !has("worktree", "W") {
			// the index only: no file of the work tree changes
			for _, w := range g.Operands {
				for _, x := range w.expand() {
					// from another commit (--source) it stages what that
					// commit holds below the path
					e.add("write", under(x), "git restore --staged").Tree = has("source", "s")
				}
			}
			return
		}
		pathspecs(g.Operands)
	case "switch", "reset", "merge", "pull", "rebase", "cherry-pick", "revert", "am", "stash", "stash push", "bisect", "read-tree", "checkout-index", "sparse-checkout", "submodule", "filter-branch":
		if g.Sub == "switch" && has("create", "force-create") && len(g.Operands) == 0 {
			return // a new branch at HEAD changes no file
		}
		if g.Sub == "reset" && !has("hard", "merge", "keep") {
			if g.DashDash || len(g.Operands) > 1 {
				pathspecs(g.Operands)
			}
			return
		}
		if g.Sub == "read-tree" {
			// --prefix=P stages a tree under P for the next commit
			for _, o := range g.Options {
				if o.Name == "prefix" && o.HasValue {
					e.add("write", under(Word{Text: o.Value, Literal: true, Parts: []string{o.Value}}), "git read-tree --prefix").Tree = true
				}
			}
		}
		if g.Sub == "submodule" && len(g.Operands) > 2 && g.Operands[0].Text == "add" {
			e.add("write", under(g.Operands[2]), "git submodule add").Tree = true
		}
		if g.Sub == "stash push" || g.Sub == "stash" && g.DashDash {
			// stash push -- paths saves them and restores them from HEAD
			pathspecs(g.Operands)
		}
		e.tree("write", root, "git "+g.Sub, true)
	case "update-index", "add":
		// Staging content (`update-index --cacheinfo mode,blob,path`, a
		// path given to update-index or `add --chmod`) puts into the next
		// commit what the work tree does not hold: a write to the path.
		if g.Sub == "add" && !has("chmod") {
			break
		}
		for _, w := range g.Operands {
			t := w.Text
			if i := strings.LastIndexByte(t, ','); i >= 0 && g.Sub == "update-index" {
				t = t[i+1:]
			}
			e.add("write", under(withText(w, t)), "git "+g.Sub).Tree = true
		}
	case "apply":
		if has("check", "stat", "numstat", "summary") && !has("apply") {
			return
		}
		if has("cached") {
			// the index only, but the next commit records it: the patch
			// is read all the same
			e.tree("write", root, "git apply", true)
			return
		}
		dir := root
		for _, o := range g.Options {
			if o.Name == "directory" {
				dir = under(Word{Text: o.Value, Literal: true, Parts: []string{o.Value}})
			}
		}
		e.tree("write", dir, "git apply", true)
	case "rm":
		// --cached removes the paths from the index only, but the next
		// commit records that: it is screened as a deletion too.
		for _, w := range g.Operands {
			for _, x := range w.expand() {
				f := e.add("delete", under(x), "git rm")
				f.Tree = has("r")
			}
		}
	case "mv":
		if len(g.Operands) > 1 {
			dst := under(g.Operands[len(g.Operands)-1])
			f := e.add("write", dst, "git mv")
			f.Tree = true
			for _, src := range g.Operands[:len(g.Operands)-1] {
				f := e.add("write", intoDir(dst, under(src)), "git mv")
				f.Tree = true
				d := e.add("delete", under(src), "git mv")
				d.Tree = true
			}
		}
	case "clean":
		if has("dry-run", "n") && !has("interactive", "i") {
			return // -n lists what it would delete and deletes nothing
		}
		if len(g.Operands) == 0 {
			e.tree("delete", root, "git clean", true)
		} else {
			for _, w := range g.Operands {
				e.tree("delete", under(w), "git clean", true)
			}
		}
	case "clone", "init":
		if len(g.Operands) > 0 {
			last := g.Operands[len(g.Operands)-1]
			if g.Sub == "init" || len(g.Operands) > 1 {
				e.tree("write", under(last), "git "+g.Sub, true)
				return
			}
		}
		e.tree("write", root, "git "+g.Sub, true)
	case "worktree add":
		if len(g.Operands) > 0 {
			e.tree("write", under(g.Operands[0]), "git worktree add", true)
		}
	case "config":
		for _, ed := range g.Edits {
			if ed.File != "" {
				e.add("write", under(Word{Text: ed.File, Literal: true, Parts: []string{ed.File}}), "git config --file")
			}
		}
	case "diff", "log", "show", "diff-tree", "diff-index", "diff-files", "whatchanged", "range-diff":
		// The diff options' --output=<file> writes the output there.
		for _, o := range g.Options {
			if o.Name == "output" && o.Value != "" {
				e.add("write", under(Word{Text: o.Value, Literal: true, Parts: []string{o.Value}}), "git "+g.Sub+" --output")
			}
		}
	case "archive", "format-patch", "bundle":
		for _, o := range g.Options {
			if o.Name == "output" || o.Name == "o" || o.Name == "output-directory" {
				e.add("write", under(Word{Text: o.Value, Literal: true, Parts: []string{o.Value}}), "git "+g.Sub)
			}
		}
		if g.Sub == "bundle" && len(g.Operands) > 1 && g.Operands[0].Text == "create" {
			e.add("write", under(g.Operands[1]), "git bundle create")
		}
	}
}
