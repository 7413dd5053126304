package shell

import (
	"path"
	"strings"
)

// A file the command writes and may then run: its text when known. See
// docs/shell.md#two-steps.
type writtenFile struct {
	text  string
	known bool
}

func writtenKey(dir, p string) string {
	if dir != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		p = joinDir(dir, p)
	}
	return path.Clean(p)
}

// printed is what a clause writes to standard output when it is known:
// echo and printf of literal words, cat or tee of a literal here-document.
func printed(c Clause) (string, bool) {
	args := c.Expanded()
	if len(args) == 0 {
		return "", false
	}
	for _, a := range args {
		if !a.Literal || a.Glob {
			return "", false
		}
	}
	texts := c.Strings()
	switch c.Name() {
	case "echo":
		i, nl, esc := 1, true, false
		for i < len(texts) && len(texts[i]) > 1 && texts[i][0] == '-' && strings.Trim(texts[i][1:], "neE") == "" {
			nl = nl && !strings.Contains(texts[i], "n")
			esc = esc || strings.Contains(texts[i], "e")
			i++
		}
		s := strings.Join(texts[i:], " ")
		if esc {
			s = ansiC(s)
		}
		if nl {
			s += "\n"
		}
		return s, true
	case "printf":
		if len(texts) < 2 || strings.Contains(texts[1], "%") {
			return "", false
		}
		return ansiC(texts[1]), true
	case "cat", "tee":
		if c.Name() == "cat" && len(texts) > 1 {
			return "", false
		}
		for _, r := range c.Redirs {
			switch r.Op {
			case "<<", "<<-":
				return r.Target.Text, r.Target.Literal
			case "<<<":
				return r.Target.Text + "\n", r.Target.Literal
			}
		}
	}
	return "", false
}

// PrintsLiteral reports a clause that only prints a text its words give:
// echo or printf of literal words, cat of a literal here-document (the
// usual "$(cat <<'EOF' … EOF)" of a commit message). It reads no file and
// writes none.
func (c Clause) PrintsLiteral() bool {
	if c.Opaque || c.Name() == "tee" {
		return false
	}
	for _, r := range c.Redirs {
		switch r.Op {
		case "<<", "<<-", "<<<":
		default:
			return false
		}
	}
	_, ok := printed(c)
	return ok
}

// recordWrites notes the files a clause writes, with their text when the
// clause prints a known text into them.
func (w *walker) recordWrites(idx int) {
	if w.written == nil {
		return
	}
	c := w.script.Clauses[idx]
	text, known := printed(c)
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">|", ">>", "&>", "&>>":
		default:
			continue
		}
		if r.Fd != "" && r.Fd != "1" {
			continue
		}
		w.note(c.Dir, r.Target, text, known, strings.HasPrefix(r.Op, ">>") || r.Op == "&>>")
	}
	if c.Name() == "tee" {
		idxs, s := operands(c.Strings(), optSpec{flags: "aip", flagLong: []string{"append", "ignore-interrupts", "output-error"}})
		args := c.Expanded()
		for _, i := range idxs {
			w.note(c.Dir, args[i], text, known, s.has("-a", "--append"))
		}
	}
	for _, e := range c.Effects() {
		if (e.Kind == "write" || e.Kind == "link") && e.Via != "tee" && !strings.HasPrefix(e.Via, ">") && !strings.HasPrefix(e.Via, "&>") {
			w.note("", e.Path, "", false, false)
		}
	}
}

func (w *walker) note(dir string, target Word, text string, known, appendTo bool) {
	if !target.Literal || target.Glob {
		return
	}
	key := writtenKey(dir, target.Text)
	m := *w.written
	if appendTo {
		if f, ok := m[key]; ok {
			text, known = f.text+text, f.known && known
		}
	}
	m[key] = &writtenFile{text: text, known: known}
}

// runsWritten follows a file the command wrote earlier and now runs: by
// path, as a shell's script, or through source. Its text is re-parsed when
// known; otherwise, or for another interpreter, the clause is opaque.
func (w *walker) runsWritten(idx int, name string, texts []string) {
	if w.written == nil || len(*w.written) == 0 {
		return
	}
	c := w.script.Clauses[idx]
	var script string
	shell := false
	switch {
	case strings.Contains(texts[0], "/"):
		script, shell = texts[0], true
	case isShell(name):
		s := scanOpts(texts, 1, shellSpec)
		if s.has("-c", "--command") || s.rest >= len(texts) {
			return
		}
		script, shell = texts[s.rest], true
	case name == "source" || name == ".":
		if len(texts) > 1 {
			script, shell = texts[1], true
		}
	case interpreterName(name):
		for _, t := range texts[1:] {
			if f, ok := (*w.written)[writtenKey(c.Dir, t)]; ok && f != nil {
				w.script.Clauses[idx].opaque(name + " runs " + t + ", which this command writes")
				return
			}
		}
		return
	default:
		return
	}
	f, ok := (*w.written)[writtenKey(c.Dir, script)]
	if !ok {
		return
	}
	if !f.known || !shell {
		w.script.Clauses[idx].opaque("runs " + script + ", which this command writes")
		return
	}
	w.script.Clauses[idx].opaque("runs " + script + ", which this command writes")
	w.runString(idx, Word{Text: f.text, Literal: true, Parts: []string{f.text}, tmpl: f.text}, script)
}
