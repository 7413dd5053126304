package shell

// Word is one argument after the shell's own expansion rules are applied to
// what is literal. See docs/shell.md#words.
type Word struct {
	// Text is the unquoted value. For a word that is not Literal it is the
	// literal parts joined; for a Glob word it is the pattern's text.
	Text string
	// Literal is false when any part of the word is expanded at run time:
	// a parameter, command or process substitution, arithmetic, an extglob,
	// or a tilde other than a leading ~ or ~/.
	Literal bool
	// Glob is true for an unquoted *, ? or [...] (Pattern holds the
	// pattern with quoted metacharacters escaped) and for a brace
	// expansion (Braces holds its words).
	Glob    bool
	Pattern string
	// Braces lists the words a literal {a,b} or {1..3} expands to.
	Braces []string
	// Tilde is true when the word starts with a ~ or ~/ that bash expands
	// to $HOME; Text keeps the ~ for the caller to resolve.
	Tilde bool
	// Parts are the literal fragments of the word, always set.
	Parts []string
	// Params names the parameters the word expands ($X, ${X:-d}), for
	// screening what they may hold (a token in $GITHUB_TOKEN).
	Params []string
	// Why says what made the word non-literal.
	Why string
	// ParamsOnly: the word is not literal only because it expands plain
	// parameters ($HOME, ${USER}), nothing that runs.
	ParamsOnly bool
	// ValuesOnly: the word is not literal only because it expands plain
	// parameters and command substitutions (`$(git rev-parse HEAD)`),
	// whose commands are clauses of the script on their own.
	ValuesOnly bool

	alts []Word // the brace expansions as words
	tmpl string // the text with a placeholder for each expanded part
}

// Assign is a NAME=VALUE given before a command (or to env, export …).
type Assign struct {
	Name  string
	Value Word
	// Unset is true for env -u NAME / unset-style removals.
	Unset bool
}

// Redir is one redirection of a clause.
type Redir struct {
	Op     string // ">", ">>", "<", "<>", ">|", "&>", "&>>", "<<", "<<-", "<<<", ">&", "<&"
	Fd     string
	Target Word // the file; for << the here-document body, for <<< the string
}

// Clause is one simple command reached anywhere in the script. See
// docs/shell.md#clauses.
type Clause struct {
	Argv    []Word
	Assigns []Assign
	Redirs  []Redir
	// Via says how the clause was reached: nil at the top level of the
	// script; e.g. ["sh -c"], ["env"], ["$()"], ["sudo", "xargs"].
	Via []string
	// Opaque clauses are never allowed: a non-literal word, an interpreter
	// one-liner, a depth limit …; Why says which, in one short phrase.
	Opaque bool
	Why    string
	// Text is the clause's source text.
	Text string
	// Dir is the directory the clause runs in relative to where the script
	// starts ("" = unchanged), after cd, pushd, env -C, sudo -D ….
	Dir string
	// EnvCleared is true when a wrapper (env -i) starts the command with an
	// empty environment.
	EnvCleared bool
	// Func is true when the command names a function the script defines.
	Func bool
	// Env lists variables exported earlier in the command (export NAME=V,
	// declare -x, assignments after set -a) that the clause's process
	// sees; Assigns (its own prefix assignments) come after and win.
	Env []Assign
	// Lookup says how an earlier statement changed the way this clause's
	// command name is found ("PATH assigned", "hash -p", "enable -f"),
	// "" when it did not.
	Lookup string

	gitAliases map[string]string // git aliases written earlier in the script
}

// Script is a parsed command line.
type Script struct {
	Clauses []Clause
	// Opaque is true when the input could not be read as shell (parse
	// error, size, depth); Why says which.
	Opaque bool
	Why    string
	// Literals lists every literal string seen anywhere (word parts,
	// here-document bodies, interpreter code), for screening.
	Literals []string
}

// Effect is a path a clause writes, deletes, links, reads or chmods, as
// written (unresolved, but joined to the clause's Dir). See
// docs/shell.md#effects.
type Effect struct {
	Kind       string // "write", "delete", "link", "read", "chmod"
	Path       Word
	LinkTarget *Word // for "link": what the link points to
	// Tree is true when everything under Path may be affected (a recursive
	// copy or delete, an archive extracted into a directory).
	Tree bool
	// Vague is true when the files affected under Path are not named on the
	// command line (an archive, a patch, a branch checkout, find's matches).
	Vague bool
	// Via names the command or redirection that causes the effect.
	Via string
}

// Expanded returns the clause's arguments with brace expansion applied:
// each literal {a,b} word becomes one word per expansion, as bash passes
// them to the command.
func (c Clause) Expanded() []Word {
	n := 0
	for _, w := range c.Argv {
		if len(w.Braces) > 0 {
			n++
		}
	}
	if n == 0 {
		return c.Argv
	}
	out := make([]Word, 0, len(c.Argv)+n)
	for _, w := range c.Argv {
		out = append(out, w.expand()...)
	}
	return out
}

// expand returns the words a brace word expands to (the word itself
// otherwise).
func (w Word) expand() []Word {
	if len(w.Braces) == 0 {
		return []Word{w}
	}
	return w.alts
}

// Name returns the command name of the clause: the last path element of
// its first argument ("" when the clause has no arguments).
func (c Clause) Name() string {
	if len(c.Argv) == 0 {
		return ""
	}
	return baseName(c.Argv[0].Text)
}

// Strings returns the Text of every expanded argument.
func (c Clause) Strings() []string {
	args := c.Expanded()
	out := make([]string, len(args))
	for i, w := range args {
		out[i] = w.Text
	}
	return out
}
