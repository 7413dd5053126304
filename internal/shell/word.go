package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wordCtx says where a word stands, which decides the expansions bash
// applies to it. See docs/shell.md#words.
type wordCtx int

const (
	ctxArg     wordCtx = iota // command argument: tilde, braces, globs
	ctxRedir                  // redirection target: as an argument
	ctxAssign                 // assignment value: tilde after = and :, no braces, no globs
	ctxHdoc                   // here-document body, unquoted delimiter: $, `, \ only
	ctxHdocRaw                // here-document body, quoted delimiter: nothing
	ctxPlain                  // a word inside an expansion or a test: no tilde, braces or globs
)

// maxBraceWords bounds brace expansion: past it the word is not literal.
const maxBraceWords = 1024

// placeholder stands in the text of a non-literal part when a string is
// re-parsed as shell (sh -c "…$x…"), so the re-parsed word is known to be
// non-literal. It is a private-use rune the parser reads as a word character.
const placeholder = "\U000F1F1F"

type wordBuilder struct {
	text, pat, tmpl strings.Builder
	literal         bool
	glob            bool
	tilde           bool
	openBracket     bool
	parts           []string
	params          []string
	why             string
	// other: something besides a plain $NAME or ${NAME} is expanded;
	// code: something besides those and command substitutions, whose
	// commands are clauses of their own.
	other, code bool
	// substs: a command substitution is expanded.
	substs bool
}

func (b *wordBuilder) nonLiteral(why string) {
	if why != "parameter expansion" {
		b.other = true
	}
	switch why {
	case "command substitution":
		b.substs = true
	case "parameter expansion":
	default:
		b.code = true
	}
	if b.literal {
		b.literal = false
		b.why = why
	}
	b.tmpl.WriteString(placeholder)
}

func (b *wordBuilder) lit(s string) {
	if s == "" {
		return
	}
	b.parts = append(b.parts, s)
}

// word converts a syntax word. Nested command and process substitutions
// are walked as clauses (when walk is true).
func (p *walker) word(w *syntax.Word, ctx wordCtx) Word {
	return p.convert(w, ctx, true)
}

func (p *walker) convert(w *syntax.Word, ctx wordCtx, walk bool) Word {
	if w == nil {
		return Word{Literal: true}
	}
	out := p.parts(w.Parts, ctx, walk)
	if ctx == ctxArg || ctx == ctxRedir {
		p.braces(w, ctx, &out)
	}
	if walk {
		p.addLiterals(out)
	}
	return out
}

func (p *walker) addLiterals(w Word) {
	if p.script == nil {
		return
	}
	if w.Literal {
		if w.Text != "" {
			p.script.Literals = append(p.script.Literals, w.Text)
		}
		p.script.Literals = append(p.script.Literals, w.Braces...)
		return
	}
	if w.Text != "" {
		p.script.Literals = append(p.script.Literals, w.Text)
	}
	if len(w.Parts) > 1 {
		p.script.Literals = append(p.script.Literals, w.Parts...)
	}
}

func (p *walker) parts(parts []syntax.WordPart, ctx wordCtx, walk bool) Word {
	b := wordBuilder{literal: true}
	for i, part := range parts {
		switch x := part.(type) {
		case *syntax.Lit:
			v := x.Value
			if strings.Contains(v, placeholder) {
				b.nonLiteral("expansion in a re-parsed string")
				v = strings.ReplaceAll(v, placeholder, "")
			}
			if i == 0 && (ctx == ctxArg || ctx == ctxRedir || ctx == ctxAssign) {
				p.tilde(&b, v, len(parts) == 1, ctx)
			}
			if ctx == ctxArg && i == 0 {
				assignTilde(&b, v)
			}
			if ctx == ctxAssign && strings.Contains(v, ":~") {
				b.nonLiteral("tilde expansion after :")
			}
			switch ctx {
			case ctxHdoc:
				b.addDq(v, true)
			case ctxHdocRaw:
				b.addQuoted(v)
			default:
				b.addUnquoted(v, ctx == ctxArg || ctx == ctxRedir)
			}
		case *syntax.SglQuoted:
			v := x.Value
			if x.Dollar {
				v = ansiC(v)
			}
			b.addQuoted(v)
		case *syntax.DblQuoted:
			for _, in := range x.Parts {
				if l, ok := in.(*syntax.Lit); ok {
					b.addDq(l.Value, false)
					continue
				}
				if cs, ok := in.(*syntax.CmdSubst); ok {
					if v, ok := p.literalSubst(cs); ok {
						b.addQuoted(v)
						if walk {
							p.stmts(cs.Stmts, "$()")
						}
						continue
					}
				}
				p.expansion(&b, in, walk)
			}
		default:
			p.expansion(&b, part, walk)
		}
	}
	text := b.text.String()
	w := Word{Text: text, Literal: b.literal, Glob: b.glob, Tilde: b.tilde && b.literal, Parts: b.parts, Params: b.params, Why: b.why,
		ParamsOnly: !b.literal && !b.other && !b.glob,
		// a substitution's commands are clauses of their own only when
		// the word's nested statements are walked
		ValuesOnly: !b.literal && !b.code && !b.glob && (walk || !b.substs)}
	if b.glob {
		w.Pattern = b.pat.String()
	}
	if w.Parts == nil {
		w.Parts = []string{}
	}
	if !b.literal {
		w.tmpl = b.tmpl.String()
	}
	return w
}

// tilde applies bash's tilde expansion rule to the first literal of a
// word: a ~ followed by nothing or / is $HOME (kept as ~ for the caller);
// ~user, ~+, ~- and ~N depend on state the parser does not have.
func (p *walker) tilde(b *wordBuilder, v string, whole bool, ctx wordCtx) {
	if !strings.HasPrefix(v, "~") {
		return
	}
	prefix := v[1:]
	if i := strings.IndexByte(prefix, '/'); i >= 0 {
		prefix = prefix[:i]
	} else if !whole {
		// the prefix runs into a quoted or expanded part: bash does not
		// expand it when quoted; an expansion makes the word non-literal
		// anyway.
		return
	}
	if strings.ContainsAny(prefix, `\'"`) {
		return
	}
	if prefix == "" {
		b.tilde = true
		return
	}
	b.nonLiteral("tilde expansion ~" + prefix)
}

// assignTilde: bash (not in POSIX mode) expands a tilde after = or : in an
// argument that looks like an assignment (echo a=~/x).
func assignTilde(b *wordBuilder, v string) {
	eq := strings.IndexByte(v, '=')
	if eq <= 0 || !syntax.ValidName(v[:eq]) {
		return
	}
	rest := v[eq:]
	if strings.Contains(rest, "=~") || strings.Contains(rest, ":~") {
		b.nonLiteral("tilde expansion in an assignment-like word")
	}
}

func isGlobMeta(c byte) bool { return c == '*' || c == '?' || c == '[' || c == ']' }

// addUnquoted adds an unquoted literal: a backslash quotes the next byte;
// *, ? and [...] are glob metacharacters when globs apply.
func (b *wordBuilder) addUnquoted(v string, globs bool) {
	start := b.text.Len()
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			i++
			c = v[i]
			if c == '\n' {
				continue
			}
			b.text.WriteByte(c)
			b.tmpl.WriteByte(c)
			if isGlobMeta(c) || c == '\\' {
				b.pat.WriteByte('\\')
			}
			b.pat.WriteByte(c)
			continue
		}
		b.text.WriteByte(c)
		b.tmpl.WriteByte(c)
		b.pat.WriteByte(c)
		if !globs {
			continue
		}
		switch c {
		case '*', '?':
			b.glob = true
		case '[':
			b.openBracket = true
		case ']':
			if b.openBracket {
				b.glob = true
			}
		}
	}
	b.lit(b.text.String()[start:])
}

// addQuoted adds text that is quoted (single quotes, $'…', a quoted
// here-document).
func (b *wordBuilder) addQuoted(v string) {
	b.text.WriteString(v)
	b.tmpl.WriteString(v)
	for i := 0; i < len(v); i++ {
		if isGlobMeta(v[i]) || v[i] == '\\' {
			b.pat.WriteByte('\\')
		}
		b.pat.WriteByte(v[i])
	}
	b.lit(v)
}

// addDq adds a literal inside double quotes (or an unquoted here-document,
// where " is not special): a backslash quotes only $ ` " \ and newline.
func (b *wordBuilder) addDq(v string, hdoc bool) {
	if !strings.Contains(v, `\`) {
		b.addQuoted(v)
		return
	}
	var s strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			n := v[i+1]
			switch {
			case n == '\n':
				i++
				continue
			case n == '$' || n == '`' || n == '\\' || (n == '"' && !hdoc):
				i++
				s.WriteByte(n)
				continue
			}
		}
		s.WriteByte(c)
	}
	b.addQuoted(s.String())
}

// literalSubst reads a command substitution that only prints literal
// text as that text, without its trailing newlines: "$(cat <<'EOF' …
// EOF)" (the usual way to pass a multi-line message), "$(echo x)",
// "$(printf 'x')". Inside double quotes that is one literal word.
func (p *walker) literalSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return "", false
	}
	c := Clause{}
	for _, a := range call.Args {
		w := p.convert(a, ctxArg, false)
		if !w.Literal || w.Glob || len(w.Braces) > 0 || w.Tilde {
			return "", false
		}
		c.Argv = append(c.Argv, w)
	}
	for _, r := range st.Redirs {
		if (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc) || (r.N != nil && r.N.Value != "0") {
			return "", false
		}
		ctx := ctxHdoc
		if r.Op == syntax.WordHdoc {
			ctx = ctxPlain
		} else if quotedDelim(r.Word) {
			ctx = ctxHdocRaw
		}
		body := r.Hdoc
		if r.Op == syntax.WordHdoc {
			body = r.Word
		}
		c.Redirs = append(c.Redirs, Redir{Op: r.Op.String(), Target: p.convert(body, ctx, false)})
	}
	if name := c.Name(); name != "echo" && name != "printf" && name != "cat" {
		return "", false
	}
	if c.Name() != "cat" && len(c.Redirs) > 0 {
		return "", false
	}
	text, ok := printed(c)
	if !ok {
		return "", false
	}
	return strings.TrimRight(text, "\n"), true
}

// expansion handles a part that is expanded at run time: the word is not
// literal; substitutions inside are walked as clauses and literal
// fragments inside (${x:-default}) are kept for screening.
func (p *walker) expansion(b *wordBuilder, part syntax.WordPart, walk bool) {
	switch x := part.(type) {
	case *syntax.ParamExp:
		b.nonLiteral("parameter expansion")
		if x.Exp != nil || x.Repl != nil || x.Slice != nil || x.Index != nil || x.Excl || x.Length || x.Width || x.Names != 0 {
			b.other, b.code = true, true // ${x:-$(cmd)}, ${!x}, ${x/a/b}: more than a value
		}
		if x.Param != nil {
			b.params = append(b.params, x.Param.Value)
		}
		if v, ok := p.knownParam(x); ok {
			// the value assigned earlier, for reading (the word stays
			// non-literal)
			b.text.WriteString(v)
			b.pat.WriteString(v)
			b.lit(v)
			return
		}
	case *syntax.CmdSubst:
		b.nonLiteral("command substitution")
		if v, ok := p.literalSubst(x); ok {
			// split into words at run time; read for deny
			b.text.WriteString(v)
			b.pat.WriteString(v)
			b.lit(v)
		}
	case *syntax.ArithmExp:
		b.nonLiteral("arithmetic expansion")
	case *syntax.ProcSubst:
		b.nonLiteral("process substitution")
	case *syntax.ExtGlob:
		b.nonLiteral("extended glob")
		b.lit(x.Pattern.Value)
	default:
		b.nonLiteral("expansion")
	}
	if !walk {
		return
	}
	p.nested(part, b)
}

// nested walks a node for command and process substitutions (walked as
// clauses) and literal fragments (kept in b's parts when b is not nil).
func (p *walker) nested(node syntax.Node, b *wordBuilder) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			via := "$()"
			if x.Backquotes {
				via = "``"
			}
			p.stmts(x.Stmts, via)
			return false
		case *syntax.ProcSubst:
			p.stmts(x.Stmts, x.Op.String()+")")
			return false
		case *syntax.ParamExp:
			// the parameter's name is not a literal of the word
			if x.Index != nil {
				p.nested(x.Index, b)
			}
			if x.Slice != nil {
				if x.Slice.Offset != nil {
					p.nested(x.Slice.Offset, b)
				}
				if x.Slice.Length != nil {
					p.nested(x.Slice.Length, b)
				}
			}
			if x.Repl != nil {
				p.nestedWord(x.Repl.Orig, b)
				p.nestedWord(x.Repl.With, b)
			}
			if x.Exp != nil {
				p.nestedWord(x.Exp.Word, b)
			}
			return false
		case *syntax.Lit:
			if b != nil {
				b.lit(x.Value)
			}
		case *syntax.SglQuoted:
			if b != nil {
				v := x.Value
				if x.Dollar {
					v = ansiC(v)
				}
				b.lit(v)
			}
		}
		return true
	})
}

func (p *walker) nestedWord(w *syntax.Word, b *wordBuilder) {
	if w == nil {
		return
	}
	in := p.convert(w, ctxPlain, true)
	if b != nil {
		if in.Text != "" {
			b.lit(in.Text)
		}
	}
}

// braces applies bash brace expansion to a word that has an unquoted
// {a,b} or {x..y}: the word is a pattern and its expansions are listed.
func (p *walker) braces(w *syntax.Word, ctx wordCtx, out *Word) {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
	if !syntax.SplitBraces(cp) || !slices.ContainsFunc(cp.Parts, func(p syntax.WordPart) bool {
		_, ok := p.(*syntax.BraceExp)
		return ok
	}) {
		return
	}
	alts, ok := expandBraces(cp.Parts, maxBraceWords)
	if !ok {
		if out.Literal {
			out.Literal = false
			out.Why = "brace expansion too large"
		}
		out.Glob = true
		if out.Pattern == "" {
			out.Pattern = out.Text
		}
		return
	}
	out.Glob = true
	if out.Pattern == "" {
		out.Pattern = out.Text
	}
	out.alts = make([]Word, 0, len(alts))
	out.Braces = make([]string, 0, len(alts))
	for _, a := range alts {
		aw := p.parts(a, ctx, false)
		if ctx == ctxArg || ctx == ctxRedir {
			// a tilde at the start of an expansion is expanded too
			if len(a) > 0 {
				if l, ok := a[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") && !aw.Literal {
					out.Literal, out.Why = false, aw.Why
				}
			}
		}
		out.alts = append(out.alts, aw)
		out.Braces = append(out.Braces, aw.Text)
	}
}

// expandBraces expands BraceExp parts (from syntax.SplitBraces) into the
// word part lists they stand for, at most max of them.
func expandBraces(parts []syntax.WordPart, max int) ([][]syntax.WordPart, bool) {
	acc := [][]syntax.WordPart{nil}
	for _, part := range parts {
		br, ok := part.(*syntax.BraceExp)
		if !ok {
			for i := range acc {
				acc[i] = append(acc[i], part)
			}
			continue
		}
		var elems [][]syntax.WordPart
		if br.Sequence {
			seq, ok := braceSequence(br, max)
			if !ok {
				return nil, false
			}
			for _, s := range seq {
				elems = append(elems, []syntax.WordPart{&syntax.Lit{Value: s}})
			}
		} else {
			for _, e := range br.Elems {
				sub, ok := expandBraces(e.Parts, max)
				if !ok {
					return nil, false
				}
				elems = append(elems, sub...)
			}
		}
		if len(acc)*len(elems) > max {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(acc)*len(elems))
		for _, a := range acc {
			for _, e := range elems {
				n := make([]syntax.WordPart, 0, len(a)+len(e))
				n = append(append(n, a...), e...)
				next = append(next, n)
			}
		}
		acc = next
	}
	return acc, true
}

// braceSequence expands {x..y[..incr]} as bash does (numbers with zero
// padding, or single letters).
func braceSequence(br *syntax.BraceExp, max int) ([]string, bool) {
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	incr := int64(1)
	if len(br.Elems) == 3 {
		n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if err != nil {
			return nil, false
		}
		if n < 0 {
			n = -n
		}
		if n != 0 {
			incr = n
		}
	}
	a, errA := strconv.ParseInt(from, 10, 64)
	z, errZ := strconv.ParseInt(to, 10, 64)
	var out []string
	if errA == nil && errZ == nil {
		width := 0
		if zeroPadded(from) || zeroPadded(to) {
			width = max2(len(from), len(to))
		}
		if (z-a)/incr >= int64(max) || (a-z)/incr >= int64(max) {
			return nil, false
		}
		step := incr
		if z < a {
			step = -incr
		}
		for i := a; (step > 0 && i <= z) || (step < 0 && i >= z); i += step {
			s := strconv.FormatInt(i, 10)
			if width > 0 {
				neg := strings.HasPrefix(s, "-")
				s = strings.TrimPrefix(s, "-")
				for len(s) < width-boolInt(neg) {
					s = "0" + s
				}
				if neg {
					s = "-" + s
				}
			}
			out = append(out, s)
		}
		return out, true
	}
	if len(from) == 1 && len(to) == 1 {
		step := incr
		if to[0] < from[0] {
			step = -incr
		}
		for c := int64(from[0]); (step > 0 && c <= int64(to[0])) || (step < 0 && c >= int64(to[0])); c += step {
			out = append(out, string(rune(c)))
		}
		return out, true
	}
	return nil, false
}

func zeroPadded(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
