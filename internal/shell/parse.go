package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Limits that keep parsing bounded. See docs/shell.md#limits.
const (
	maxInput   = 1 << 20 // bytes of shell read at the top level
	maxDepth   = 8       // nested re-parses (sh -c "sh -c …", eval, here-docs)
	maxClauses = 4096    // clauses in one script
)

// walker turns a syntax tree into clauses.
type walker struct {
	script *Script
	src    string
	depth  int
	via    []string
	dir    string // cwd relative to the start, after cd
	dirBad string // why the cwd is no longer known ("" while it is)
	// cdSearch says why a cd to a bare name may not go to ./name: CDPATH
	// set, or cdable_vars on ("" while neither is).
	cdSearch string
	physPWD  bool // cd -P or set -P ran: cd follows symlinks
	funcs    map[string]bool
	assign   []Assign // assignments inherited from a wrapper (env NAME=V …)
	envClr   bool
	// aliases are git aliases written so far (git config alias.x …);
	// the map is replaced, never changed, so clauses keep their view.
	aliases *map[string]string
	// written holds the files written so far (see recordWrites).
	written *map[string]*writtenFile
	// vars are shell variables with a known literal value (see vars.go).
	vars map[string]string
	// lookup says how command lookup was changed (PATH, hash -p …).
	lookup string
	// exported holds exported assignments (replaced, never changed); allExport
	// is set -a.
	exported  []Assign
	allExport bool
}

// Parse reads src as a Bash command line. It never panics: input it cannot
// read as shell gives a Script with Opaque set.
func Parse(src string) (s *Script) {
	s = &Script{}
	defer func() {
		if r := recover(); r != nil {
			s.Opaque, s.Why = true, "internal error while parsing"
			s.Literals = append(s.Literals, src)
		}
	}()
	if len(src) > maxInput {
		s.Opaque, s.Why = true, "command longer than 1 MiB"
		s.Literals = []string{src}
		return s
	}
	w := &walker{script: s, funcs: map[string]bool{}, aliases: new(map[string]string), written: &map[string]*writtenFile{}}
	if err := w.parse(src); err != nil {
		s.Opaque, s.Why = true, "not readable as shell: "+err.Error()
		s.Literals = append(s.Literals, src)
		return s
	}
	markFuncCalls(s, w.funcs)
	return s
}

// parsers reuses parsers: a parser is large and Parse resets it.
var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash))
}}

// parseFile reads src as Bash.
func parseFile(src string) (*syntax.File, error) {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

func (w *walker) parse(src string) error {
	f, err := parseFile(src)
	if err != nil {
		if !w.salvage(src) {
			w.salvageLines(src, err)
		}
		return err
	}
	old := w.src
	w.src = src
	w.list(f.Stmts)
	w.src = old
	return nil
}

// salvage reads input the parser refuses in the way Bash may still run
// it, so deny and self-protection see its clauses: Bash reads a "((" (or
// "$((") that is not arithmetic as "( (". The clauses found are opaque;
// the caller reports the input as unreadable.
func (w *walker) salvage(src string) bool {
	if !strings.Contains(src, "((") {
		return false
	}
	alt := src
	for strings.Contains(alt, "((") {
		alt = strings.ReplaceAll(alt, "((", "( (")
	}
	f, err := parseFile(alt)
	if err != nil {
		return false
	}
	w.walkSalvaged(f, alt, "read with (( as ( (")
	return true
}

// salvageLines: Bash runs the complete lines before a syntax error (bash
// -c 'rm x\nfi' removes x, then fails), so the lines before the error are
// read as clauses (opaque) when they parse on their own.
func (w *walker) salvageLines(src string, err error) {
	pe, ok := err.(syntax.ParseError)
	if !ok {
		if p, isPtr := err.(*syntax.ParseError); isPtr {
			pe, ok = *p, true
		}
	}
	if !ok {
		return
	}
	lines := strings.SplitAfter(src, "\n")
	n := int(pe.Pos.Line()) - 1
	for tries := 0; n > 0 && tries < 8; tries++ {
		prefix := strings.Join(lines[:min(n, len(lines))], "")
		if f, err := parseFile(prefix); err == nil {
			w.walkSalvaged(f, prefix, "runs before a syntax error")
			return
		}
		n--
	}
}

func (w *walker) walkSalvaged(f *syntax.File, src, why string) {
	start := len(w.script.Clauses)
	old := w.src
	w.src = src
	w.list(f.Stmts)
	w.src = old
	for i := start; i < len(w.script.Clauses); i++ {
		w.script.Clauses[i].opaque(why)
	}
}

// reparse reads a string the script hands to a shell (sh -c, eval, a
// here-document) as shell, one level deeper. A template with placeholders
// for expanded parts is read the same way; words with a placeholder are
// non-literal.
func (w *walker) reparse(src string, via string, parent *Clause) {
	if w.depth+1 > maxDepth {
		parent.opaque("nested shell deeper than the limit")
		return
	}
	sub := *w
	sub.depth++
	sub.via = appendVia(w.via, via)
	sub.assign = nil
	sub.envClr = false
	sub.vars = nil // a new shell: the variables it sees are not known here
	if err := sub.parse(src); err != nil {
		parent.opaque("string run as shell is not readable as shell")
		w.script.Literals = append(w.script.Literals, src)
	}
}

func appendVia(via []string, v string) []string {
	out := make([]string, len(via), len(via)+1)
	copy(out, via)
	return append(out, v)
}

func (c *Clause) opaque(why string) {
	if !c.Opaque {
		c.Opaque, c.Why = true, why
	}
}

// stmts walks statements reached through a substitution or a nested shell.
func (w *walker) stmts(list []*syntax.Stmt, via string) {
	sub := *w
	sub.via = appendVia(w.via, via)
	sub.assign = nil
	sub.envClr = false
	sub.list(list)
}

// list walks a statement list in order; a cd changes the directory for the
// statements after it.
func (w *walker) list(list []*syntax.Stmt) {
	for _, st := range list {
		w.stmt(st)
	}
}

func (w *walker) stmt(st *syntax.Stmt) {
	if st == nil {
		return
	}
	if len(w.script.Clauses) >= maxClauses {
		w.script.Opaque, w.script.Why = true, "more clauses than the limit"
		return
	}
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		w.call(st, x)
		return
	case nil:
		// a statement of redirections only
		if len(st.Redirs) > 0 {
			w.emitRedirOnly(st)
		}
		return
	}
	if len(st.Redirs) > 0 {
		w.emitRedirOnly(st)
	}
	switch x := st.Cmd.(type) {
	case *syntax.Block:
		w.list(x.Stmts)
	case *syntax.Subshell:
		sub := *w
		sub.list(x.Stmts)
	case *syntax.BinaryCmd:
		w.binary(x)
	case *syntax.IfClause:
		w.cond(func(c *walker) {
			for ic := x; ic != nil; ic = ic.Else {
				c.list(ic.Cond)
				c.list(ic.Then)
			}
		})
	case *syntax.WhileClause:
		w.cond(func(c *walker) { c.list(x.Cond); c.list(x.Do) })
	case *syntax.ForClause:
		w.cond(func(c *walker) {
			switch l := x.Loop.(type) {
			case *syntax.WordIter:
				for _, it := range l.Items {
					c.word(it, ctxArg)
				}
				if l.Name != nil {
					c.setVar(l.Name.Value, "", false)
					w.setVar(l.Name.Value, "", false)
				}
			case *syntax.CStyleLoop:
				c.nested(l, nil)
				c.arith(st, l, "for ((")
			}
			c.list(x.Do)
		})
	case *syntax.CaseClause:
		w.cond(func(c *walker) {
			c.word(x.Word, ctxPlain)
			for _, it := range x.Items {
				for _, pat := range it.Patterns {
					c.word(pat, ctxPlain)
				}
				c.list(it.Stmts)
			}
		})
	case *syntax.FuncDecl:
		name := ""
		if x.Name != nil {
			name = x.Name.Value
			w.funcs[name] = true
		}
		for _, n := range x.Names {
			w.funcs[n.Value] = true
		}
		sub := *w
		sub.via = appendVia(w.via, "function "+name)
		sub.assign = nil
		sub.stmt(x.Body)
	case *syntax.ArithmCmd:
		w.nested(x, nil)
		w.arith(st, x, "((")
		w.forgetVars()
	case *syntax.TestClause:
		w.nested(x, nil)
		w.testWords(x.X)
	case *syntax.LetClause:
		w.nested(x, nil)
		w.arith(st, x, "let")
		w.forgetVars()
	case *syntax.DeclClause:
		w.decl(st, x)
	case *syntax.TimeClause:
		sub := *w
		sub.via = appendVia(w.via, "time")
		sub.stmt(x.Stmt)
		w.dir, w.dirBad = sub.dir, sub.dirBad
	case *syntax.CoprocClause:
		sub := *w
		sub.via = appendVia(w.via, "coproc")
		sub.stmt(x.Stmt)
	default:
		w.nested(st.Cmd, nil)
		c := w.newClause(st)
		c.opaque("unsupported shell construct")
		w.emit(c)
	}
}

// arith: Bash evaluates a variable's value as arithmetic, and an array
// subscript in it (a[$(cmd)]) runs commands: arithmetic that reads a
// variable is an opaque clause.
func (w *walker) arith(st *syntax.Stmt, node syntax.Node, kw string) {
	vars := false
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.ParamExp:
			vars = true
		case *syntax.Lit:
			if syntax.ValidName(x.Value) {
				vars = true
			}
		}
		return !vars
	})
	if !vars {
		return
	}
	idx := w.reserve()
	if idx < 0 {
		return
	}
	c := w.newClause(st)
	c.Argv = []Word{{Text: kw, Literal: true, Parts: []string{kw}}}
	c.opaque("arithmetic on variables may run commands")
	w.script.Clauses[idx] = c
}

// testWords records the literal words of a [[ … ]] test for screening.
func (w *walker) testWords(x syntax.TestExpr) {
	syntax.Walk(x, func(n syntax.Node) bool {
		if wd, ok := n.(*syntax.Word); ok {
			w.addLiterals(w.convert(wd, ctxPlain, false))
			return false
		}
		return true
	})
}

func (w *walker) newClause(st *syntax.Stmt) Clause {
	c := Clause{Via: w.via, Dir: w.dir, Lookup: w.lookup, Env: w.exported}
	if w.aliases != nil {
		c.gitAliases = *w.aliases
	}
	c.Text = w.text(st)
	if w.dirBad != "" {
		// The last directory known is not where the clause runs: its
		// relative paths stay relative, so they read as unknown.
		c.Dir = ""
		c.opaque("working directory unknown: " + w.dirBad)
	}
	return c
}

func (w *walker) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

func (w *walker) redirs(st *syntax.Stmt, c *Clause) {
	for _, r := range st.Redirs {
		rd := Redir{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			ctx := ctxHdoc
			if quotedDelim(r.Word) {
				ctx = ctxHdocRaw
			}
			rd.Target = w.word(r.Hdoc, ctx)
			if !rd.Target.Literal {
				// an expanded here-document only matters when it is run
				// as code; that case is handled where it is fed to a shell.
				rd.Target.Why = "expansion in a here-document"
			}
		case syntax.WordHdoc:
			rd.Target = w.word(r.Word, ctxPlain)
		default:
			rd.Target = w.word(r.Word, ctxRedir)
			if !rd.Target.Literal {
				c.opaque("redirection target: " + rd.Target.Why)
			} else if len(rd.Target.Braces) > 1 {
				c.opaque("ambiguous redirect")
			}
		}
		c.Redirs = append(c.Redirs, rd)
	}
}

func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(x.Value, `\`) {
				return true
			}
		}
	}
	return false
}

func (w *walker) emitRedirOnly(st *syntax.Stmt) {
	idx := w.reserve()
	if idx < 0 {
		return
	}
	c := w.newClause(st)
	w.redirs(st, &c)
	w.script.Clauses[idx] = c
}

// reserve appends an empty clause to fill in later, so a clause precedes
// the clauses nested in its words; -1 past the limit.
func (w *walker) reserve() int {
	if len(w.script.Clauses) >= maxClauses {
		w.script.Opaque, w.script.Why = true, "more clauses than the limit"
		return -1
	}
	w.script.Clauses = append(w.script.Clauses, Clause{})
	return len(w.script.Clauses) - 1
}

func (w *walker) emit(c Clause) {
	if len(w.script.Clauses) >= maxClauses {
		w.script.Opaque, w.script.Why = true, "more clauses than the limit"
		return
	}
	w.script.Clauses = append(w.script.Clauses, c)
}

// call turns a simple command into a clause and follows what it runs.
func (w *walker) call(st *syntax.Stmt, x *syntax.CallExpr) {
	// the clause goes before the clauses nested in its words
	idx := w.reserve()
	if idx < 0 {
		return
	}
	c := w.newClause(st)
	c.Assigns = append(c.Assigns, w.assign...)
	c.EnvCleared = w.envClr
	for _, a := range x.Assigns {
		as := w.assignment(a)
		if !as.Value.Literal {
			c.opaque("assignment " + as.Name + ": " + as.Value.Why)
		}
		c.Assigns = append(c.Assigns, as)
	}
	for i, a := range x.Args {
		wd := w.word(a, ctxArg)
		if !wd.Literal && !EchoesParams(c.Argv, i, wd) {
			c.opaque(wd.Why)
		}
		c.Argv = append(c.Argv, wd)
	}
	w.redirs(st, &c)
	w.script.Clauses[idx] = c
	if len(c.Argv) == 0 {
		for _, as := range c.Assigns {
			w.noteCDPATH(as.Name) // a bare CDPATH=… lasts for the clauses after it
		}
		base := len(c.Assigns) - len(x.Assigns)
		for i, a := range x.Assigns {
			as := c.Assigns[base+i]
			if as.Name == "PATH" {
				w.lookup = "PATH assigned"
			}
			if w.allExport {
				w.export(as)
			}
			known := as.Value.Literal && !as.Value.Glob && a.Index == nil && !a.Append && a.Array == nil
			w.setVar(as.Name, as.Value.Text, known && !as.Value.Tilde)
		}
		w.recordWrites(idx)
		return
	}
	w.follow(idx)
	w.recordWrites(idx)
	w.trackDir(idx)
	w.varEffects(w.script.Clauses[idx])
	w.lookupEffects(w.script.Clauses[idx])
}

func (w *walker) assignment(a *syntax.Assign) Assign {
	as := Assign{}
	if a.Name != nil {
		as.Name = a.Name.Value
	}
	switch {
	case a.Array != nil:
		as.Value = Word{Literal: false, Why: "array assignment", Parts: []string{}}
		for _, el := range a.Array.Elems {
			ew := w.word(el.Value, ctxAssign)
			as.Value.Parts = append(as.Value.Parts, ew.Parts...)
		}
	case a.Value != nil:
		as.Value = w.word(a.Value, ctxAssign)
	default:
		as.Value = Word{Literal: true, Parts: []string{}}
	}
	if a.Index != nil {
		w.nested(a.Index, nil)
		as.Value.Literal, as.Value.Why = false, "indexed assignment"
	}
	if a.Append {
		as.Value.Literal, as.Value.Why = false, "appending assignment"
	}
	return as
}

// decl turns declare/export/local/readonly/typeset into a clause whose
// assignments change the environment of what follows.
func (w *walker) decl(st *syntax.Stmt, x *syntax.DeclClause) {
	idx := w.reserve()
	if idx < 0 {
		return
	}
	c := w.newClause(st)
	c.Argv = append(c.Argv, Word{Text: x.Variant.Value, Literal: true, Parts: []string{x.Variant.Value}})
	for _, a := range x.Args {
		if a.Naked && a.Name == nil {
			wd := w.word(a.Value, ctxArg)
			if !wd.Literal {
				c.opaque(wd.Why)
				w.noteCDPATH("CDPATH") // `export "$x"` may set it
			}
			w.noteCDPATH(strings.SplitN(wd.Text, "=", 2)[0])
			c.Argv = append(c.Argv, wd)
			continue
		}
		as := w.assignment(a)
		if a.Naked {
			c.Argv = append(c.Argv, Word{Text: as.Name, Literal: true, Parts: []string{as.Name}})
			continue
		}
		if !as.Value.Literal {
			c.opaque("assignment " + as.Name + ": " + as.Value.Why)
		}
		c.Assigns = append(c.Assigns, as)
		w.noteCDPATH(as.Name)
		if as.Name == "PATH" {
			w.lookup = "PATH assigned"
		}
		if exportDecl(x) || w.allExport {
			w.export(as)
		}
		w.setVar(as.Name, as.Value.Text, as.Value.Literal && !as.Value.Glob && !as.Value.Tilde && a.Index == nil && !a.Append && a.Array == nil)
		c.Argv = append(c.Argv, Word{Text: as.Name + "=" + as.Value.Text, Literal: as.Value.Literal, Parts: append([]string{as.Name + "="}, as.Value.Parts...), Params: as.Value.Params, Why: as.Value.Why})
	}
	w.redirs(st, &c)
	w.script.Clauses[idx] = c
}

// markFuncCalls makes clauses that call a function defined in the script
// opaque: what runs is the function body, walked as its own clauses.
func markFuncCalls(s *Script, funcs map[string]bool) {
	if len(funcs) == 0 {
		return
	}
	for i := range s.Clauses {
		c := &s.Clauses[i]
		if len(c.Argv) > 0 && funcs[c.Argv[0].Text] {
			c.Func = true
			c.opaque("calls a function defined in the command")
		}
	}
}
