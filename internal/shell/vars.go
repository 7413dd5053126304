package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell variables assigned a literal value earlier in the command are
// remembered so that a later $X can be read (F=.git; rm -rf $F reads
// .git). Such a word stays non-literal — its clause is opaque — but its
// Text and Parts carry the value for deny and self-protection. See
// docs/shell.md#words.

// setVar records (or, with known false, forgets) a variable. The map is
// replaced, never changed, so walkers that copied it keep their view.
func (w *walker) setVar(name, value string, known bool) {
	if _, had := w.vars[name]; !had && !known {
		return
	}
	m := make(map[string]string, len(w.vars)+1)
	for k, v := range w.vars {
		m[k] = v
	}
	if known {
		m[name] = value
	} else {
		delete(m, name)
	}
	w.vars = m
}

func (w *walker) forgetVars() { w.vars = nil }

// mergeVars keeps only what both paths agree on (after a statement that
// may or may not run).
func (w *walker) mergeVars(sub *walker) {
	if len(w.vars) == 0 {
		return
	}
	var m map[string]string
	for k, v := range w.vars {
		if sv, ok := sub.vars[k]; ok && sv == v {
			if m == nil {
				m = map[string]string{}
			}
			m[k] = v
		}
	}
	w.vars = m
}

// knownParam returns the value of a plain $X or ${X} whose value is known.
func (p *walker) knownParam(x *syntax.ParamExp) (string, bool) {
	if x.Param == nil || x.Excl || x.Length || x.Width || x.IsSet || x.Index != nil || x.Slice != nil ||
		x.Repl != nil || x.Exp != nil || x.Flags != nil {
		return "", false
	}
	v, ok := p.vars[x.Param.Value]
	return v, ok
}

// varEffects forgets what a clause may assign: read, mapfile, printf -v,
// getopts, unset name their variables; eval, source and functions may
// assign anything.
func (w *walker) varEffects(c Clause) {
	if len(w.vars) == 0 || len(c.Argv) == 0 {
		return
	}
	texts := c.Strings()
	switch c.Name() {
	case "read", "mapfile", "readarray", "unset", "getopts", "printf", "declare", "typeset", "local", "export", "readonly":
		for _, t := range texts[1:] {
			if !strings.HasPrefix(t, "-") {
				name, _, _ := strings.Cut(t, "=")
				w.setVar(name, "", false)
			}
		}
		if c.Name() == "read" || c.Name() == "mapfile" || c.Name() == "readarray" {
			w.setVar("REPLY", "", false)
			w.setVar("MAPFILE", "", false)
		}
	case "eval", "source", ".", "let":
		w.forgetVars()
	default:
		if c.Func || !c.Argv[0].Literal {
			w.forgetVars()
		}
	}
}
