package shell

import (
	"strings"
	"sync"
)

// follow looks at what the clause at idx runs: a wrapper's command, a
// shell's string, eval's words, an interpreter's code. See
// docs/shell.md#wrappers.
func (w *walker) follow(idx int) {
	c := w.script.Clauses[idx]
	args := c.Expanded()
	if len(args) == 0 {
		return
	}
	if !args[0].Literal {
		// $SHELL -c 'cmd', "$(which bash)" -c 'cmd': read the string too
		if len(args) > 2 && strings.HasPrefix(args[1].Text, "-") && !strings.HasPrefix(args[1].Text, "--") &&
			strings.Contains(args[1].Text, "c") {
			w.runString(idx, args[2], "-c")
		}
		return
	}
	if args[0].Glob {
		w.script.Clauses[idx].opaque("command name is a glob")
		return
	}
	texts := make([]string, len(args))
	for i, a := range args {
		texts[i] = a.Text
	}
	name := baseName(texts[0])
	w.runsWritten(idx, name, texts)
	for _, a := range append(append([]Assign(nil), c.Env...), c.Assigns...) {
		if why := codeVar(a.Name); why != "" && !a.Unset {
			w.script.Clauses[idx].opaque(why)
			if strings.HasPrefix(a.Name, "BASH_FUNC_") {
				fn := strings.TrimSuffix(strings.TrimPrefix(a.Name, "BASH_FUNC_"), "%%")
				v := a.Value
				v.Text, v.tmpl = fn+" "+v.Text, fn+" "+v.tmpl
				w.runString(idx, v, "exported function")
			}
		}
	}
	if why := codeOption(name, texts); why != "" {
		w.script.Clauses[idx].opaque(why)
	}
	if isGitName(name) {
		w.gitRuns(idx)
		return
	}
	if name == "trap" || name == "alias" || name == "mapfile" || name == "readarray" {
		w.trapAlias(idx, args, texts)
		return
	}
	if f, ok := wrappers()[name]; ok {
		f(w, idx, args, texts)
		return
	}
	if isShell(name) {
		if foreignShells()[name] {
			w.script.Clauses[idx].opaque(name + " is not Bash: its strings are read as Bash")
		}
		w.shell(idx, args, texts, name)
		return
	}
	if (name == "source" || name == ".") && len(texts) > 1 {
		if stdinPath(texts[1]) || strings.HasPrefix(texts[1], "/dev/fd/") || strings.HasPrefix(texts[1], "/proc/") {
			w.script.Clauses[idx].opaque(name + " reads commands from standard input")
			w.stdinCode(idx, name)
		}
		return
	}
	if why := interpreterCode(name, texts); why != "" {
		w.script.Clauses[idx].opaque(why)
		return
	}
	if readsCodeFromStdin(name, texts) && hasStdinRedir(c) {
		w.script.Clauses[idx].opaque(name + " reads code from standard input")
		return
	}
}

func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// inner emits the command a wrapper runs as a clause of its own and follows
// it in turn.
func (w *walker) inner(idx int, args []Word, via string, extra []Assign, dir string, why string) int {
	if len(args) == 0 {
		return -1
	}
	p := w.script.Clauses[idx]
	c := Clause{
		Argv:       append([]Word(nil), args...),
		Assigns:    append(append([]Assign(nil), p.Assigns...), extra...),
		Via:        appendVia(p.Via, via),
		Text:       p.Text,
		Dir:        p.Dir,
		EnvCleared: p.EnvCleared,
		gitAliases: p.gitAliases,
		Lookup:     p.Lookup,
		Env:        p.Env,
	}
	if dir != "" {
		c.Dir = joinDir(c.Dir, dir)
	}
	if p.Opaque {
		c.opaque(p.Why)
	}
	if why != "" {
		c.opaque(why)
	}
	for _, a := range args {
		if !a.Literal {
			c.opaque(a.Why)
		}
	}
	for _, a := range extra {
		if !a.Value.Literal && !a.Unset {
			c.opaque("assignment " + a.Name + ": " + a.Value.Why)
		}
	}
	if len(w.script.Clauses) >= maxClauses || len(c.Via) > 4*maxDepth {
		w.script.Clauses[idx].opaque("wrappers nested deeper than the limit")
		return -1
	}
	n := len(w.script.Clauses)
	w.emit(c)
	w.follow(n)
	return n
}

// runString re-parses a string a command hands to a shell.
func (w *walker) runString(idx int, s Word, via string) {
	c := &w.script.Clauses[idx]
	src := s.Text
	if !s.Literal {
		c.opaque(s.Why)
		src = s.tmpl
		if src == "" {
			return
		}
	}
	sub := *w
	sub.via = c.Via
	sub.dir, sub.dirBad = c.Dir, w.dirBad
	if c.Opaque && c.Why != "" && strings.HasPrefix(c.Why, "working directory unknown") {
		sub.dirBad = strings.TrimPrefix(c.Why, "working directory unknown: ")
	}
	start := len(w.script.Clauses)
	sub.reparse(src, via, c)
	// the shell the string runs in inherits the clause's environment
	p := w.script.Clauses[idx]
	for i := start; i < len(w.script.Clauses); i++ {
		in := &w.script.Clauses[i]
		if len(p.Assigns) > 0 {
			in.Assigns = append(append([]Assign(nil), p.Assigns...), in.Assigns...)
		}
		in.EnvCleared = in.EnvCleared || p.EnvCleared
		if !s.Literal {
			in.opaque("part of a string run as shell is expanded at run time")
		}
	}
}

// shells that take -c.
var shellNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
		"ash": true, "yash": true, "posh": true, "rbash": true, "ksh93": true, "pdksh": true,
		"oksh": true, "loksh": true, "fish": true, "tcsh": true, "csh": true, "elvish": true,
		"nu": true, "xonsh": true, "osh": true, "ysh": true,
	}
})

func isShell(name string) bool { return shellNames()[name] }

// foreignShells have a syntax other than Bash's: their strings are read as
// Bash for deny, and the clause is opaque.
var foreignShells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"fish": true, "tcsh": true, "csh": true, "elvish": true, "nu": true, "xonsh": true}
})

var shellSpec = optSpec{
	flags:    "abcefhiklmnprstuvxBCEHPT",
	argShort: "oO",
	argLong:  []string{"rcfile", "init-file"},
	flagLong: []string{"login", "norc", "noprofile", "posix", "restricted", "verbose", "noediting", "debugger", "dump-strings", "dump-po-strings", "pretty-print", "help", "version", "protected", "interactive", "command", "no-config", "private"},
}

// shell follows sh|bash|zsh … -c STRING, and a shell reading its commands
// from a here-document or here-string.
func (w *walker) shell(idx int, args []Word, texts []string, name string) {
	s := scanOpts(texts, 1, shellSpec)
	if s.has("-c", "--command") {
		if s.rest >= len(args) {
			return
		}
		w.runString(idx, args[s.rest], name+" -c")
		return
	}
	if s.rest < len(args) && !stdinPath(texts[s.rest]) && !s.has("-s") {
		if strings.HasPrefix(texts[s.rest], "/dev/fd/") || strings.HasPrefix(texts[s.rest], "/proc/") {
			w.script.Clauses[idx].opaque(name + " reads commands from a file descriptor")
		}
		return // runs a script file
	}
	w.stdinCode(idx, name)
}

// stdinPath: a script operand that is standard input.
func stdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// stdinCode re-parses the here-documents and here-strings a shell (or
// source /dev/stdin) reads its commands from.
func (w *walker) stdinCode(idx int, name string) {
	c := w.script.Clauses[idx]
	for _, r := range c.Redirs {
		switch r.Op {
		case "<<", "<<-":
			w.runString(idx, r.Target, name+" <<")
		case "<<<":
			w.runString(idx, r.Target, name+" <<<")
		case "<", "<>":
			if r.Fd == "" || r.Fd == "0" {
				w.script.Clauses[idx].opaque(name + " reads commands from a file")
			}
		}
	}
}

func hasStdinRedir(c Clause) bool {
	for _, r := range c.Redirs {
		switch r.Op {
		case "<<", "<<-", "<<<", "<", "<>":
			if r.Fd == "" || r.Fd == "0" {
				return true
			}
		}
	}
	return false
}

// markPipeShell: a shell or interpreter on the right of a pipe without a
// script reads its code from the pipe. The literal text of echo, printf
// and here-documents on the left is re-parsed as what it runs.
func (w *walker) markPipeShell(xStart, yStart, end int) {
	var runs []int
	for i := yStart; i < end; i++ {
		c := w.script.Clauses[i]
		if len(c.Via) != len(w.via) || len(c.Argv) == 0 {
			continue
		}
		texts := c.Strings()
		name := baseName(texts[0])
		if isShell(name) {
			s := scanOpts(texts, 1, shellSpec)
			if s.has("-c", "--command") || (s.rest < len(texts) && !stdinPath(texts[s.rest]) && !s.has("-s")) {
				continue
			}
			w.script.Clauses[i].opaque(name + " reads commands from a pipe")
			runs = append(runs, i)
			continue
		}
		if readsCodeFromStdin(name, texts) {
			w.script.Clauses[i].opaque(name + " reads code from a pipe")
		}
	}
	if len(runs) == 0 {
		return
	}
	for i := xStart; i < yStart; i++ {
		c := w.script.Clauses[i]
		if len(c.Via) != len(w.via) {
			continue
		}
		var text Word
		switch c.Name() {
		case "echo", "printf":
			args := c.Expanded()[1:]
			for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
				args = args[1:]
			}
			parts := make([]string, 0, len(args))
			text.Literal = true
			for _, a := range args {
				parts = append(parts, a.Text)
				if !a.Literal {
					text.Literal, text.Why = false, a.Why
				}
			}
			text.Text = strings.Join(parts, " ")
			text.tmpl = text.Text
			// bash's echo prints backslashes as they are; printf, echo -e
			// and dash's echo decode them: both readings are re-parsed.
			if strings.Contains(text.Text, `\`) {
				dec := text
				dec.Text = ansiC(text.Text)
				dec.tmpl = dec.Text
				if dec.Text != text.Text {
					w.runString(runs[0], dec, w.script.Clauses[runs[0]].Name()+" |")
				}
			}
		case "cat":
			for _, r := range c.Redirs {
				if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
					text = r.Target
				}
			}
		default:
			continue
		}
		if text.Text == "" && text.tmpl == "" {
			continue
		}
		w.runString(runs[0], text, w.script.Clauses[runs[0]].Name()+" |")
	}
}
