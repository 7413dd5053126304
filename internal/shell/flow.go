package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// How one statement's effects on the shell (directory, exports, command
// lookup) reach the statements after it. See docs/shell.md#clauses.

func (w *walker) binary(x *syntax.BinaryCmd) {
	switch x.Op {
	case syntax.Pipe, syntax.PipeAll:
		// each side of a pipe runs in its own subshell
		l, r := *w, *w
		xStart := len(w.script.Clauses)
		l.stmt(x.X)
		yStart := len(w.script.Clauses)
		r.stmt(x.Y)
		w.markPipeShell(xStart, yStart, len(w.script.Clauses))
	case syntax.AndStmt:
		// each statement of a && chain runs only after the ones before it
		// succeeded: a cd in the chain holds for the rest of the chain;
		// after the chain the directory is uncertain.
		w.cond(func(c *walker) {
			for _, st := range andChain(x) {
				c.stmt(st)
			}
		})
	default: // ||
		xs := *w
		xs.stmt(x.X)
		if exits(x.Y) {
			// cd x || exit: what follows runs only where X succeeded
			ys := xs
			ys.stmt(x.Y)
			w.dir, w.dirBad = xs.dir, xs.dirBad
			return
		}
		w.mergeDir(&xs)
		w.cond(func(c *walker) { c.stmt(x.Y) })
	}
}

// andChain flattens a && b && c (parsed as (a && b) && c).
func andChain(x *syntax.BinaryCmd) []*syntax.Stmt {
	var out []*syntax.Stmt
	if l, ok := x.X.Cmd.(*syntax.BinaryCmd); ok && l.Op == syntax.AndStmt && len(x.X.Redirs) == 0 && !x.X.Negated {
		out = andChain(l)
	} else {
		out = []*syntax.Stmt{x.X}
	}
	return append(out, x.Y)
}

// exits reports a statement that ends the script: exit or return, alone or
// last in a block.
func exits(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		n := ""
		if len(c.Args) > 0 {
			n = c.Args[0].Lit()
		}
		return n == "exit" || n == "return"
	case *syntax.Block:
		return len(c.Stmts) > 0 && exits(c.Stmts[len(c.Stmts)-1])
	}
	return false
}

// cond walks statements that may or may not run: a cd inside leaves the
// directory unknown afterwards.
func (w *walker) cond(f func(*walker)) {
	sub := *w
	f(&sub)
	w.mergeDir(&sub)
	w.mergeVars(&sub)
	if sub.lookup != "" && w.lookup == "" {
		w.lookup = sub.lookup
	}
	// an export that may have run is taken as run
	if len(sub.exported) != len(w.exported) || (len(sub.exported) > 0 && &sub.exported[0] != &w.exported[0]) {
		for _, a := range sub.exported {
			w.export(a)
		}
	}
}

func (w *walker) mergeDir(sub *walker) {
	if sub.cdSearch != "" && w.cdSearch == "" {
		w.cdSearch = sub.cdSearch
	}
	if sub.dirBad != "" && w.dirBad == "" {
		w.dirBad = sub.dirBad
	}
	if sub.dir != w.dir && w.dirBad == "" {
		w.dirBad = "cd that may or may not run"
	}
}

// trackDir follows cd and pushd/popd for the clauses after them.
func (w *walker) trackDir(idx int) {
	c := &w.script.Clauses[idx]
	if len(c.Via) != len(w.via) {
		return
	}
	search := w.cdSearch
	if c.Name() == "set" {
		for _, a := range c.Expanded()[1:] {
			if (strings.HasPrefix(a.Text, "-") && strings.ContainsRune(a.Text, 'P')) || a.Text == "physical" {
				w.physPWD = true // set -P, set -o physical
			}
		}
	}
	for _, as := range c.Assigns {
		if as.Name == "CDPATH" {
			search = "CDPATH is set"
		}
	}
	if c.Name() == "shopt" {
		for _, a := range c.Expanded()[1:] {
			if a.Text == "cdable_vars" || !a.Literal {
				w.cdSearch = "cdable_vars may be on"
			}
		}
	}
	switch c.Name() {
	case "cd", "pushd", "chdir":
	case "popd":
		w.dirBad = "popd"
		return
	default:
		return
	}
	args := c.Expanded()[1:]
	if c.Name() == "pushd" {
		// pushd with no directory swaps the top two of the stack, and
		// ±N rotates it: where it lands is not in the command.
		rot := len(args) == 0
		for _, a := range args {
			if len(a.Text) > 1 && (a.Text[0] == '+' || a.Text[0] == '-') && strings.Trim(a.Text[1:], "0123456789") == "" {
				rot = true
			}
		}
		if rot {
			w.dirBad = "pushd rotates the directory stack"
			return
		}
	}
	physical := false // cd -P: the directory as the kernel resolves it
	for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") && args[0].Text != "-" {
		if args[0].Text == "--" {
			args = args[1:]
			break
		}
		if o := args[0].Text; strings.LastIndexByte(o, 'P') > strings.LastIndexByte(o, 'L') {
			physical = true
		} else if strings.ContainsRune(o, 'L') {
			physical = false
		}
		args = args[1:]
	}
	if len(args) == 0 {
		w.dir = "~"
		return
	}
	a := args[0]
	switch {
	case !a.Literal || a.Glob:
		w.dirBad = "cd to " + quoteWord(a)
	case a.Text == "-" || strings.HasPrefix(a.Text, "+") && c.Name() == "pushd":
		w.dirBad = "cd " + a.Text
	case dirStackTilde(a.Text):
		w.dirBad = "cd " + a.Text + " (the directory stack)"
	case search != "" && !strings.HasPrefix(a.Text, "/") && !strings.HasPrefix(a.Text, "~") && !strings.HasPrefix(a.Text, "./") &&
		!strings.HasPrefix(a.Text, "../") && a.Text != "." && a.Text != "..":
		w.dirBad = "cd " + a.Text + " while " + search
	case physical || w.physPWD:
		// After cd -P, PWD is the resolved directory, so a later logical
		// `cd ..` goes up from it too.
		w.physPWD = true
		w.dir = joinDir(w.dir, a.Text)
	default:
		// A logical cd (bash's default) applies `..` to the names as
		// written; the paths used after it are still resolved by the
		// kernel, through any symlink (joinDir).
		w.dir = path.Clean(joinDir(w.dir, a.Text))
	}
}

// noteCDPATH records an assignment or export of CDPATH: from then on a cd
// to a bare name may go anywhere CDPATH lists.
func (w *walker) noteCDPATH(name string) {
	if name == "CDPATH" {
		w.cdSearch = "CDPATH is set"
	}
}

// dirStackTilde reports ~+, ~-, ~N, ~+N, ~-N: bash expands them from the
// directory stack, not from a home directory.
func dirStackTilde(t string) bool {
	if !strings.HasPrefix(t, "~") {
		return false
	}
	rest, _, _ := strings.Cut(t[1:], "/")
	rest = strings.TrimLeft(rest, "+-")
	return len(t) > 1 && (t[1] == '+' || t[1] == '-' || t[1] >= '0' && t[1] <= '9') && strings.Trim(rest, "0123456789") == ""
}

// joinDir joins a path to the directory it is relative to, without
// cleaning: the kernel resolves `..` after a symlink from the link's
// target (with src/h a link to .git/hooks, `cd src/h && echo x >
// ../config` writes .git/config), so the gate resolves the joined path
// component by component (docs/threat-model.md#how-a-written-path-is-resolved).
func joinDir(dir, to string) string {
	if dir == "" || dir == "." || strings.HasPrefix(to, "/") || strings.HasPrefix(to, "~") {
		return to
	}
	return strings.TrimRight(dir, "/") + "/" + to
}

func quoteWord(w Word) string {
	if w.Text == "" {
		return "an expansion"
	}
	return w.Text
}

// lookupEffects notes statements after which a command name may find
// another program: hash -p, enable -f (a builtin from a library).
func (w *walker) lookupEffects(c Clause) {
	if len(c.Via) != len(w.via) {
		return
	}
	texts := c.Strings()
	switch c.Name() {
	case "hash":
		for _, t := range texts[1:] {
			if strings.HasPrefix(t, "-") && strings.Contains(t, "p") {
				w.lookup = "hash -p"
			}
		}
	case "enable":
		for _, t := range texts[1:] {
			if strings.HasPrefix(t, "-") && strings.Contains(t, "f") {
				w.lookup = "enable -f"
			}
		}
	case "set":
		for i, t := range texts[1:] {
			if (strings.HasPrefix(t, "-") && strings.Contains(t, "a") && !strings.HasPrefix(t, "--")) ||
				(t == "-o" && i+2 < len(texts) && texts[i+2] == "allexport") {
				w.allExport = true
			}
		}
	}
}

// exportDecl: export, or declare/typeset with -x.
func exportDecl(x *syntax.DeclClause) bool {
	if x.Variant.Value == "export" {
		return true
	}
	for _, a := range x.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if v := a.Value.Lit(); strings.HasPrefix(v, "-") && strings.Contains(v, "x") {
				return true
			}
		}
	}
	return false
}

// export adds an assignment to what later clauses' processes see.
func (w *walker) export(a Assign) {
	env := make([]Assign, 0, len(w.exported)+1)
	for _, e := range w.exported {
		if e.Name != a.Name {
			env = append(env, e)
		}
	}
	w.exported = append(env, a)
}
