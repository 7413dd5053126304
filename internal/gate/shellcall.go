package gate

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/protect"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// maxScriptDepth bounds how deep scripts run by a command (and scripts
// written then run) are followed.
const maxScriptDepth = 3

// shells run a script file named as their first operand.
var shells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "source": true, ".": true}
})

// interpreters run code the gate cannot read.
var interpreters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"python": true, "python2": true, "python3": true, "node": true, "nodejs": true, "perl": true,
		"ruby": true, "php": true, "deno": true, "bun": true, "awk": true, "gawk": true, "mawk": true,
		"lua": true, "tclsh": true, "rscript": true, "osascript": true, "pwsh": true, "powershell": true,
		"eval": true, "sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"busybox": true, "expect": true, "groovy": true, "jshell": true, "irb": true,
	}
})

// shell analyses one shell command line (docs/threat-model.md) and returns
// its parse.
func (a *analysis) shell(cmd string, depth int) *shell.Script {
	s := shell.Parse(cmd)
	if s.Opaque {
		a.opaqueText(cmd, "a command the shell parser cannot read ("+s.Why+")")
		for _, l := range s.Literals {
			if m := mentions(l); m != "" {
				a.c.deny("it names " + m + " in a command the gate cannot read")
			}
		}
	}
	st := &shellState{}
	for i := range s.Clauses {
		a.clause(&s.Clauses[i], st, depth)
	}
	return s
}

// shellState is what earlier clauses change for later ones: whether PATH
// was changed. (The parser follows `cd` itself: a clause's Dir, and its
// effects joined to it.)
type shellState struct {
	pathChanged bool
	// headMoved says an earlier clause may have changed the current
	// branch (git switch main && git push -u origin HEAD).
	headMoved string
	// headBranch is the branch the earlier clause checked out, when it
	// names one (`git switch main`, `git checkout -b x`, `git branch -m
	// main`): HEAD then means it.
	headBranch string
	// gitConfig holds what earlier `git config` clauses of the command
	// set: a push or fetch after them reads it as git will
	// (`git config remote.origin.push … && git push origin`).
	gitConfig map[string][]string
	// assigned names the variables earlier clauses (and this one's
	// prefix) set: make reads its variables from the environment.
	assigned map[string]bool
}

func words(ws []shell.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

func (a *analysis) clause(cl *shell.Clause, st *shellState, depth int) {
	c := a.c
	argv := words(cl.Argv)
	var assigns []string
	for _, as := range cl.Assigns {
		assigns = append(assigns, as.Name+"="+as.Value.Text)
		a.assign(as.Name, as.Value.Text, st)
		if as.Unset && protect.PathSwitch(as.Name) {
			st.pathChanged = true
		}
	}
	if cl.EnvCleared {
		st.pathChanged = true // env -i: no PATH at all
	}
	if len(cl.Argv) == 0 {
		for _, as := range cl.Assigns {
			a.persists(as.Name, as.Value, as.Value.Text)
		}
	}
	// What the clause acts on, in words: its data (a message, a pattern,
	// what echo prints) is left out (docs/shell.md#data).
	data := cl.Data()
	acts := append([]string{}, assigns...)
	for i, w := range argv {
		if data == nil || !data[i] {
			acts = append(acts, w)
		}
	}
	canon := strings.TrimSpace(strings.Join(acts, " "))
	if canon != "" {
		c.Texts = append(c.Texts, canon)
	}
	// A secret or key named anywhere in the clause (`git add .env`, `cat
	// id_rsa`, `cp .env /tmp`) is said in words, for "secrets" entries; in
	// data only a secret variable counts (`echo $GITHUB_TOKEN` prints it).
	for i, w := range cl.Argv[min(1, len(cl.Argv)):] {
		if data != nil && data[i+1] {
			w = shell.Word{Params: w.Params}
		}
		if f, hit := secretWord(w); hit {
			c.Texts = append(c.Texts, "secrets "+f, "read secrets "+f)
			c.Secret = f
		}
	}
	if f := findSecret(argv); f != "" {
		c.Texts = append(c.Texts, "secrets "+f, "read secrets "+f)
		c.Secret = f
	}
	if f := envDump(cl); f != "" {
		c.Texts = append(c.Texts, "secrets "+f, "read secrets "+f)
		c.Secret = f
	}
	act := Action{Kind: "run", Argv: argv, Assigns: assigns, Opaque: cl.Opaque, Why: cl.Why}
	if cl.Opaque {
		c.opaque()
	}
	c.Actions = append(c.Actions, act)
	fx := cl.Effects()
	for _, e := range fx {
		a.effect(cl, e)
	}
	a.binaryCopy(fx)
	if len(cl.Argv) == 0 {
		return
	}
	a.xargsFed(cl)
	a.runsProgram(argv)
	a.pythonModule(argv)
	a.unknownWriter(cl, argv, fx)
	w0 := cl.Argv[0]
	name := path.Base(strings.ReplaceAll(w0.Text, `\`, "/"))
	lname := strings.ToLower(name)
	if !w0.Literal || w0.Glob {
		a.opaqueCommand(cl, argv)
	}
	if isCmdlet(name) {
		a.opaqueText(cl.Text, "a PowerShell cmdlet")
	}
	a.extraWrites(cl, lname)
	switch lname {
	case "export", "declare", "typeset", "readonly", "local":
		for i, w := range argv[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				a.assign(k, v, st)
				a.persists(k, cl.Argv[i+1], v)
			}
		}
	case "hash", "enable":
		for _, w := range argv[1:] {
			if w == "-p" && lname == "hash" || strings.HasPrefix(w, "-") && strings.Contains(w, "f") && lname == "enable" {
				a.c.unreadable(lname + " " + w + " makes a command name run another program, in this shell and in the calls after this one")
			}
		}
	case "unset":
		for _, w := range argv[1:] {
			if strings.EqualFold(w, "PATH") {
				st.pathChanged = true
			}
		}
	}
	a.gitwarrant(cl, argv)
	a.hookManagers(argv)
	a.signing(cl, argv, lname)
	a.scriptWrite(cl, argv, lname, depth)
	if g, ok := cl.Git(); ok {
		a.git(g, cl, st)
	}
	if cl.Opaque && (interpreters()[lname] || !w0.Literal || lname == "go" || lname == "jq") {
		a.opaqueCode(cl)
	}
	a.goRun(cl, argv)
	if depth < maxScriptDepth {
		a.scriptRun(cl, argv, lname, st, depth)
		if lname == "make" || lname == "gmake" {
			a.makeRun(cl, argv, st, depth)
		}
	}
	a.describeNetwork(argv, lname)
	a.ghAPI(argv, lname)
}

// ghAPI describes `gh api` calls that write to a repository: a field
// naming a branch (`-f branch=main`, the contents API) is a commit to it,
// and the refs endpoint (`repos/o/r/git/refs/heads/main`) moves it, so
// each is a push to it for ask and never entries; the merges and merge
// endpoints merge.
func (a *analysis) ghAPI(argv []string, lname string) {
	if lname != "gh" || len(argv) < 3 || argv[1] != "api" {
		return
	}
	// gh api sends GET unless fields or -X say otherwise
	method, fields := "", false
	for i, w := range argv[2:] {
		switch {
		case w == "-f" || w == "-F" || w == "--field" || w == "--raw-field" || w == "--input" ||
			strings.HasPrefix(w, "--field=") || strings.HasPrefix(w, "--raw-field="):
			fields = true
		case (w == "-X" || w == "--method") && i+3 < len(argv):
			method = strings.ToUpper(argv[i+3])
		case strings.HasPrefix(w, "-X") && len(w) > 2:
			method = strings.ToUpper(w[2:])
		case strings.HasPrefix(w, "--method="):
			method = strings.ToUpper(w[len("--method="):])
		}
	}
	if method == "GET" || method == "HEAD" || method == "" && !fields {
		return
	}
	for i, w := range argv[2:] {
		v := w
		if (w == "-f" || w == "-F" || w == "--field" || w == "--raw-field") && i+3 < len(argv) {
			v = argv[i+3]
		}
		v = strings.TrimPrefix(strings.TrimPrefix(v, "--field="), "--raw-field=")
		if k, b, ok := strings.Cut(v, "="); ok && (k == "branch" || k == "ref") {
			b = strings.TrimPrefix(b, "refs/heads/")
			a.c.Texts = append(a.c.Texts, "push to "+b, "commit to "+b)
		}
		if _, b, ok := strings.Cut(w, "/git/refs/heads/"); ok && b != "" {
			// the refs endpoint moves the branch itself
			a.c.Texts = append(a.c.Texts, "push to "+b, "force push to "+b)
		}
		if strings.HasSuffix(w, "/merges") || strings.HasSuffix(w, "/merge") {
			a.c.Texts = append(a.c.Texts, "merging a pull request", "merge")
		}
	}
}

// persists screens a variable set for the rest of the shell (a bare
// assignment or export), which the agent's shell may keep for the calls
// that follow: PATH (lookupChanged), and the variables that make git run
// another program (GIT_SSH_COMMAND, GIT_EDITOR …).
func (a *analysis) persists(name string, w shell.Word, value string) {
	switch {
	case name == "PATH":
		a.lookupChanged(w, value)
	case shell.GitProgramVar(name) && !(w.Literal && harmlessProgram(value)):
		a.c.unreadable(name + " is set for this shell and the calls after this one, and makes git run another program")
	}
}

// harmlessProgram is a pager or editor setting that runs nothing of the
// agent's (`GIT_PAGER=cat`, `PAGER=less`).
func harmlessProgram(v string) bool {
	switch v {
	case "", "cat", "less", "more", "true", ":":
		return true
	}
	return false
}

// lookupChanged screens a PATH set for the rest of the shell (a bare
// assignment or export): the agent's shell may keep it for the calls that
// follow, where a directory put before the old PATH can hold a program
// standing in for git or gitwarrant. Appending (`$PATH:dir`) cannot.
func (a *analysis) lookupChanged(w shell.Word, value string) {
	if len(w.Params) > 0 && w.Params[0] == "PATH" && strings.HasPrefix(strings.TrimPrefix(value, "PATH="), ":") {
		return
	}
	a.c.unreadable("PATH is set to " + value + " for this shell and the calls after this one; a program put before git on it can stand in for git")
}

// assign screens one environment assignment for the command(s) it reaches.
func (a *analysis) assign(name, value string, st *shellState) {
	if st.assigned == nil {
		st.assigned = map[string]bool{}
	}
	st.assigned[name] = true
	if why, hit := protect.HookSwitch(name, value); hit {
		a.c.deny(why + "; the git hooks anchor the record")
	}
	if why := shell.CodeVar(name); why != "" {
		a.c.unreadable(why)
	}
	if protect.PathSwitch(name) {
		st.pathChanged = true
	}
}

// effect screens one path a clause writes, deletes, links, chmods or
// reads. A recursive or vague effect (a tree copied or deleted, an archive
// extracted, find's matches) covers everything below its path, so a
// protected place inside it is hit too.
func (a *analysis) effect(cl *shell.Clause, e shell.Effect) {
	c := a.c
	kind := e.Kind
	ancestors := kind == "delete" || e.Tree || e.Vague
	if e.Vague && a.vague(cl, e) {
		return
	}
	if kind == "write" && e.Tree && sourceFormatters()[e.Via] {
		// A formatter of program source rewrites its own language's files
		// under the tree; the protected places hold none of them.
		ancestors = false
	} else if kind == "write" && e.Tree && markupFormatters()[e.Via] {
		// A formatter of shell, Markdown, JSON or YAML can reach the loops,
		// the hooks and the settings: over a tree holding them, a person
		// decides.
		for _, p := range wordPaths(e.Path) {
			if p.pattern != "" && !p.glob {
				abs := Resolve(p.text, a.cwd, a.place.Home)
				if _, hit := a.place.placeWhy(abs); !hit {
					if why, in := a.place.ancestorWhy(abs); in {
						a.c.unreadable(e.Via + " rewrites files under " + p.text + ", and " + strings.TrimPrefix(why, "it "))
					}
				}
			}
		}
		ancestors = false
	}
	dirUnknown := strings.HasPrefix(cl.Why, "working directory unknown")
	for _, p := range wordPaths(e.Path) {
		if p.pattern == "" {
			// Built at run time: a mention of a protected place denies,
			// anything else cannot be read.
			if kind == "read" {
				continue
			}
			if m := mentions(e.Path.Text); m != "" {
				c.deny("it writes to a path built at run time that names " + m)
			} else {
				c.unreadable("it writes to a path built at run time (" + e.Path.Text + ")")
			}
			continue
		}
		if dirUnknown && kind != "read" && !filepath.IsAbs(p.text) && !strings.HasPrefix(p.text, "~") {
			if m := mentions(p.text); m != "" {
				c.deny("it writes " + p.text + ", which names " + m + ", from a directory the gate cannot read")
			}
			c.unreadable("it writes to a relative path after changing to a directory the gate cannot read")
		}
		a.screenPath(kind, p, a.cwd, ancestors)
	}
	if e.LinkTarget != nil {
		for _, p := range wordPaths(*e.LinkTarget) {
			if p.pattern == "" {
				if m := mentions(e.LinkTarget.Text); m != "" {
					c.deny("it creates a link to a path built at run time that names " + m)
				}
				continue
			}
			// A symbolic link's target is relative to the link's directory,
			// a hard link's to the working directory: both are tried.
			bases := []string{a.cwd}
			for _, lp := range wordPaths(e.Path) {
				if lp.pattern != "" && !lp.glob {
					bases = append(bases, filepath.Dir(Lexical(lp.text, a.cwd, a.place.Home)))
				}
			}
			for _, b := range bases {
				var probe Call
				sub := &analysis{c: &probe, place: a.place, env: a.env, cwd: a.cwd}
				if sub.screenPath("link", p, b, false) {
					c.deny("it creates a link that points into a protected place, and a write through the link is a write there: " + probe.Denied)
					return
				}
			}
		}
	}
}

// wpath is one path a word may stand for: literal text, or a glob.
type wpath struct {
	text    string
	pattern string // "" when the word is built at run time
	glob    bool
}

func wordPaths(w shell.Word) []wpath {
	if !w.Literal {
		return []wpath{{text: w.Text}}
	}
	if len(w.Braces) == 0 {
		if w.Glob && w.Pattern != "" {
			return []wpath{{text: w.Pattern, pattern: w.Pattern, glob: true}}
		}
		return []wpath{{text: w.Text, pattern: w.Text}}
	}
	out := make([]wpath, 0, len(w.Braces))
	for _, t := range w.Braces {
		g := strings.ContainsAny(t, "*?[")
		out = append(out, wpath{text: t, pattern: t, glob: g})
	}
	return out
}

// screenPath decides one path in one working directory; it reports
// whether it denied.
func (a *analysis) screenPath(kind string, p wpath, cwd string, ancestors bool) bool {
	c := a.c
	if p.glob {
		lex := Lexical(p.text, cwd, a.place.Home)
		pats := []string{globPattern(lex), globPattern(resolveGlobPrefix(lex))}
		if kind == "read" {
			return false
		}
		for _, pat := range pats {
			if why, hit := a.place.patternWhy(pat, ancestors); hit {
				c.deny(why + " (the glob " + p.text + " can match it)")
				return true
			}
		}
		c.Texts = append(c.Texts, describe(kind, a.place.rel(lex)))
		return false
	}
	abs := Resolve(p.text, cwd, a.place.Home)
	lex := Lexical(p.text, cwd, a.place.Home)
	rel := a.place.rel(abs)
	c.Actions = append(c.Actions, Action{Kind: kind, Path: abs, Rel: rel})
	c.Texts = append(c.Texts, describe(kind, rel))
	// A recursive read (grep -r, rg, tar -c) of a directory reads every
	// secret below it: ~/.ssh, or a home holding ~/.ssh and ~/.aws.
	secret := isSecret(abs) || kind == "read" && ancestors && a.place.secretsBelow(abs)
	if secret {
		c.Texts = append(c.Texts, "secrets "+rel)
		c.Secret = rel
	}
	if kind == "read" {
		if secret {
			c.Texts = append(c.Texts, "read secrets "+rel)
		}
		return false
	}
	for _, cand := range []string{abs, lex} {
		why, hit := a.place.placeWhy(cand)
		if !hit && ancestors {
			why, hit = a.place.ancestorWhy(cand)
		}
		if hit {
			c.deny(why)
			return true
		}
	}
	if kind == "write" || kind == "chmod" {
		a.hardLink(abs)
	}
	return false
}

// secretsBelow reports a directory that holds secrets or keys wherever
// it is (a .ssh, .aws or secrets folder) or holds the home directory's.
func (pl Place) secretsBelow(dir string) bool {
	if isSecret(filepath.Join(dir, "x")) {
		return true
	}
	return pl.Home != "" && within(filepath.Join(pl.Home, ".ssh"), dir)
}

func describe(kind, rel string) string {
	switch kind {
	case "read":
		return "read " + rel
	case "delete":
		return "delete " + rel
	case "link":
		return "link " + rel
	case "chmod":
		return "chmod " + rel
	}
	return "write to " + rel
}

// resolveGlobPrefix resolves the symlinks of a glob's directories before
// its first wildcard.
func resolveGlobPrefix(lex string) string {
	parts := strings.Split(filepath.ToSlash(lex), "/")
	for i, p := range parts {
		if strings.ContainsAny(p, "*?[") {
			prefix := strings.Join(parts[:i], "/")
			if prefix == "" {
				prefix = "/"
			}
			return filepath.ToSlash(Resolve(prefix, "/", "")) + "/" + strings.Join(parts[i:], "/")
		}
	}
	return filepath.ToSlash(Resolve(lex, "/", ""))
}

// opaqueCommand handles a command named by a variable, a substitution or a
// glob: it is never allowed, and a glob that can name gitwarrant (or a
// variable beside a human-only word) is a denial.
func (a *analysis) opaqueCommand(cl *shell.Clause, argv []string) {
	w0 := cl.Argv[0]
	a.c.unreadable("the command name is not literal (" + w0.Text + ")")
	if w0.Literal && w0.Glob {
		pat := globPattern(path.Base(w0.Text))
		for _, n := range []string{"gitwarrant", "docket"} {
			if intersect(pat, n) || intersect(pat, n+"-"+string(starOne)) {
				a.c.deny("the command name " + w0.Text + " can be gitwarrant")
			}
		}
	}
	if len(argv) > 1 && protect.HumanOnly()[strings.ToLower(argv[1])] && cl.Argv[1].Literal {
		a.c.deny("a command named at run time is given `" + argv[1] + "`, which only people may run if the command is gitwarrant")
	}
}

// opaqueCode screens code the gate cannot read (an interpreter one-liner,
// eval or sh -c of a string built at run time): a mention of a protected
// place in its literal parts denies.
func (a *analysis) opaqueCode(cl *shell.Clause) {
	a.c.unreadable("it runs code the gate cannot read (" + cl.Why + ")")
	var lits []string
	for _, w := range cl.Argv {
		lits = append(lits, w.Parts...)
		lits = append(lits, w.Text)
	}
	for _, r := range cl.Redirs {
		lits = append(lits, r.Target.Text)
	}
	for _, l := range lits {
		if m := mentions(l); m != "" {
			a.c.deny("it names " + m + " in code the gate cannot read (" + cl.Why + ")")
			return
		}
	}
	if sub := humanOnlyIn(codeWords(strings.Join(lits, " "))); sub != "" {
		a.c.deny("`gitwarrant " + sub + "` is for people only")
	}
}

// gitwarrant denies running one of gitwarrant's human-only commands: by
// name (a path or a build ending in it, `go run ./cmd/gitwarrant`, `npx
// docket-agent`), or through any executable that is the running binary
// (the same file, or the same bytes under another name).
func (a *analysis) gitwarrant(cl *shell.Clause, argv []string) {
	for i, w := range argv {
		if i > 0 && (argv[i-1] == "cd" || argv[i-1] == "pushd") {
			continue
		}
		isGW := protect.BinaryName(w)
		if !isGW && i == 0 && cl.Argv[0].Literal {
			isGW = a.sameBinary(w, a.clauseDir(cl))
		}
		if !isGW {
			continue
		}
		if i > 0 && !launcher(argv[:i]) {
			// A word naming gitwarrant among another command's arguments
			// (a path to read) is not a run of it, unless a launcher runs it.
			continue
		}
		rest := cl.Argv[i+1:]
		sub, literal := subcommand(rest)
		switch {
		case protect.HumanOnly()[strings.ToLower(sub)]:
			a.c.deny("`gitwarrant " + sub + "` is for people only (amending, reviewing, signing, keys, the hooks and (un)installing the gates)")
		case !literal:
			a.c.deny("gitwarrant is given a command built at run time, which may be one only people run")
		}
	}
}

// launcher reports argv words that run the program named next: `go run`,
// npx, a wrapper the parser did not unwrap.
func launcher(prefix []string) bool {
	for _, w := range prefix {
		switch path.Base(w) {
		case "run", "npx", "bunx", "pnpx", "exec", "dlx", "x":
			return true
		}
	}
	return false
}

// subcommand is the first word that is not a flag (skipping --dir's
// value); literal is false when that word is built at run time.
func subcommand(rest []shell.Word) (string, bool) {
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if !w.Literal {
			return w.Text, false
		}
		if w.Text == "--dir" || w.Text == "-C" {
			i++
			continue
		}
		if strings.HasPrefix(w.Text, "-") {
			continue
		}
		return w.Text, true
	}
	return "", true
}

// codeWords splits text the gate cannot parse (interpreter code, a
// PowerShell line) into lower-cased words at every character that cannot
// be part of a command name or a path, so `os.system('gitwarrant amend')`
// yields gitwarrant and amend.
func codeWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' || r == '/' || r == '@' || r == '\\')
	})
}

// humanOnlyIn returns the first human-only command that follows a word
// naming gitwarrant in lower-cased words, or "".
func humanOnlyIn(ws []string) string {
	for i, w := range ws {
		if !protect.BinaryName(w) {
			continue
		}
		for _, later := range ws[i+1:] {
			if protect.HumanOnly()[later] {
				return later
			}
			if protect.AgentSafe()[later] {
				break
			}
		}
	}
	return ""
}

// hookManagers denies `pre-commit|lefthook|husky uninstall` (and the
// managers' other ways to drop hooks).
func (a *analysis) hookManagers(argv []string) {
	for i, w := range argv {
		base := strings.ToLower(path.Base(w))
		for _, m := range protect.HookManagerCommands {
			if base != m && base != m+".exe" {
				continue
			}
			for _, later := range argv[i+1:] {
				switch strings.ToLower(later) {
				case "uninstall", "clean", "gc", "rm", "remove":
					a.c.deny(m + " " + later + " removes the git hooks through which gitwarrant anchors the record")
					return
				}
			}
		}
	}
}

// runsProgram makes a command unreadable when an option or script of it
// runs a program or writes a file the gate does not follow: sed's w/W/e
// commands, rg --pre, sort --compress-program (docs/shell.md#opaque).
func (a *analysis) runsProgram(argv []string) {
	if len(argv) < 2 {
		return
	}
	name := strings.ToLower(path.Base(argv[0]))
	for _, t := range argv[1:] {
		switch {
		case (name == "sed" || name == "gsed") && shell.SedCode(argv) != "":
			a.c.unreadable("sed's script writes a file or runs a command")
			return
		case (name == "rg" || name == "ripgrep") && (t == "--pre" || strings.HasPrefix(t, "--pre=")):
			a.c.unreadable("rg --pre runs a program on every file")
			return
		case name == "sort" && strings.HasPrefix(t, "--co") && strings.HasPrefix("--compress-program", strings.SplitN(t, "=", 2)[0]):
			a.c.unreadable("sort --compress-program runs a program")
			return
		}
	}
}

// pythonModule makes `python -m M` unreadable when the working directory
// holds a module or package M: python puts that directory first on its
// path, so it runs the agent's ./M.py rather than the installed tool an
// entry like `Bash(pytest *)` allows through `Bash(python -m *)`
// (docs/typed-entries.md#runners).
func (a *analysis) pythonModule(argv []string) {
	if len(argv) < 2 || !pythonName(path.Base(argv[0])) {
		return
	}
	mod := ""
	for i := 1; i < len(argv) && mod == ""; i++ {
		t := argv[i]
		switch {
		case t == "-m" && i+1 < len(argv):
			mod = argv[i+1]
		case strings.HasPrefix(t, "-m") && len(t) > 2:
			mod = t[2:]
		case t == "-c" || t == "-" || !strings.HasPrefix(t, "-"):
			return // a program or a script runs, not a module
		}
	}
	top, _, _ := strings.Cut(mod, ".")
	if top == "" {
		return
	}
	dir := Resolve(".", a.cwd, a.place.Home)
	for _, p := range []string{top + ".py", top + ".pyc", filepath.Join(top, "__init__.py"), filepath.Join(top, "__main__.py")} {
		if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
			a.c.unreadable("python -m " + mod + " runs " + p + " from the working directory, not the installed " + top)
			return
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, top+".*.so")); len(m) > 0 {
		a.c.unreadable("python -m " + mod + " runs " + filepath.Base(m[0]) + " from the working directory, not the installed " + top)
	}
}

// pythonName reports a Python interpreter's name: python, python3,
// python3.12.
func pythonName(n string) bool {
	n = strings.ToLower(n)
	if !strings.HasPrefix(n, "python") {
		return false
	}
	return strings.Trim(n[len("python"):], "0123456789.") == ""
}

// xargsReaders only read the paths xargs gives them.
var xargsReaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"echo": true, "printf": true, "cat": true, "head": true, "tail": true, "wc": true,
		"ls": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "file": true, "stat": true, "du": true,
		"basename": true, "dirname": true, "realpath": true, "readlink": true, "sha256sum": true, "sha1sum": true,
		"md5sum": true, "diff": true, "cmp": true, "true": true, "test": true, "[": true, "less": true, "more": true,
		"bat": true, "nl": true, "od": true, "xxd": true, "strings": true, "jq": true, "find": true, "tree": true}
})

// xargsFed makes a command that xargs (or find's matches) feeds with paths
// unreadable unless it only reads them: the paths come from input the gate
// never sees (`printf '.git/hooks/pre-commit' | xargs rm`), so a person
// decides even when no loop is pinned (docs/shell.md#wrappers).
func (a *analysis) xargsFed(cl *shell.Clause) {
	if len(cl.Via) == 0 || cl.Via[len(cl.Via)-1] != "xargs" {
		return
	}
	name := strings.ToLower(path.Base(cl.Argv[0].Text))
	if protect.BinaryName(cl.Argv[0].Text) || (cl.Argv[0].Literal && a.sameBinary(cl.Argv[0].Text, a.clauseDir(cl))) {
		a.c.deny("xargs runs gitwarrant with arguments from its input, which could name a command only people may run")
		return
	}
	if !xargsReaders()[name] {
		a.c.unreadable("xargs gives " + name + " arguments from its input, which the gate cannot read")
	}
}

// unknownWriter: a command for which the gate found no write (no model of
// it, or one that only saw its reads, as sed's `w FILE` command) that is given a protected place as an argument or an option's
// value may write there (`gcc -o .git/hooks/pre-commit`, `openssl enc -out
// .git/config`, `zip .git/hooks/pre-commit …`, `sponge`, `yq -i`), so the
// call is unreadable: a person decides, pinned or not
// (docs/threat-model.md#globs-and-words-the-gate-cannot-read).
func (a *analysis) unknownWriter(cl *shell.Clause, argv []string, fx []shell.Effect) {
	for _, e := range fx {
		if e.Kind != "read" {
			return // a modelled write: screened as a path already
		}
	}
	if len(argv) < 2 {
		return
	}
	name := strings.ToLower(path.Base(argv[0]))
	if xargsReaders()[name] || name == "git" || name == "cd" || name == "pushd" || protect.BinaryName(argv[0]) {
		return
	}
	for _, w := range argv[1:] {
		if m := mentions(w); m != "" {
			a.c.unreadable(name + " is given " + w + ", which names " + m + ", and the gate does not know what " + name + " writes")
			return
		}
	}
}

// binaryCopy denies a clause that copies or links the gitwarrant binary to
// another name: the copy would be checked by content only once it exists,
// and a later clause of the same call can run it before it is looked at
// (`cp gitwarrant /tmp/x && /tmp/x uninstall`, over a /tmp/x that
// exists). See docs/threat-model.md#what-the-gate-protects.
func (a *analysis) binaryCopy(fx []shell.Effect) {
	writes := false
	for _, e := range fx {
		if e.Kind != "read" {
			writes = true
		}
	}
	if !writes {
		return
	}
	for _, e := range fx {
		src := e.Path
		if e.Kind == "link" && e.LinkTarget != nil {
			src = *e.LinkTarget
		} else if e.Kind != "read" {
			continue
		}
		if src.Literal && !src.Glob && src.Text != "" && (protect.BinaryName(src.Text) || a.sameBinary(src.Text, a.cwd)) { // effects are joined to the clause's directory
			a.c.deny("it copies or links the gitwarrant binary (" + src.Text + ") to another name, which could then run commands only people may run")
			return
		}
	}
}

// clauseDir is the directory a clause runs in: the call's, moved by the
// `cd`s before it.
func (a *analysis) clauseDir(cl *shell.Clause) string {
	if cl.Dir != "" {
		return Resolve(cl.Dir, a.cwd, a.place.Home)
	}
	return a.cwd
}

// sameBinary reports whether the executable a command name resolves to
// (a path from dir, the clause's directory, or a name looked up on PATH)
// is the running gitwarrant binary: the same file, or a copy with the
// same bytes.
func (a *analysis) sameBinary(name, dir string) bool {
	me := self(a.env)
	if me == "" {
		return false
	}
	var p string
	if strings.ContainsRune(name, '/') {
		p = Resolve(name, dir, a.place.Home)
	} else {
		lp, err := exec.LookPath(name)
		if err != nil {
			return false
		}
		p = lp
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	mi, err := os.Stat(me)
	if err != nil {
		return false
	}
	if os.SameFile(fi, mi) {
		return true
	}
	if fi.Size() != mi.Size() {
		return false
	}
	return fileHash(p) == fileHash(me)
}

func fileHash(p string) string {
	f, _, ok := openRegular(p)
	if !ok {
		return p
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return p
	}
	return string(h.Sum(nil))
}

// scriptRun follows a script the clause runs: `sh x.sh`, `bash x`, `.
// x.sh`, `source x`, `./x.sh`. A shell script is parsed and screened like
// the command itself; a script in another language is screened for
// mentions of protected places; a script that does not exist yet cannot be
// read.
func (a *analysis) scriptRun(cl *shell.Clause, argv []string, lname string, st *shellState, depth int) {
	var file string
	shellScript := false
	switch {
	case shells()[lname] || interpreters()[lname]:
		for i := 1; i < len(cl.Argv); i++ {
			w := cl.Argv[i]
			if strings.HasPrefix(w.Text, "-") {
				if w.Text == "-c" || w.Text == "-e" || w.Text == "-m" || w.Text == "-s" {
					return
				}
				continue
			}
			if !w.Literal {
				return
			}
			file = w.Text
			break
		}
		shellScript = shells()[lname]
	case strings.ContainsRune(argv[0], '/') && cl.Argv[0].Literal:
		file = argv[0]
	default:
		return
	}
	if file == "" {
		if shells()[lname] && lname != "source" && lname != "." {
			// A shell reading its script from stdin (a pipe, a here-doc
			// the parser did not see as a script).
			a.c.unreadable("a shell reads its commands from standard input")
		}
		return
	}
	dir := a.clauseDir(cl)
	p := Resolve(file, dir, a.place.Home)
	content, ok := readSmall(p, 256<<10)
	if !ok {
		fi, err := os.Stat(p)
		switch {
		case err != nil && (shellScript || strings.ContainsRune(argv[0], '/')):
			a.c.unreadable("it runs " + file + ", which does not exist yet")
		case err == nil && fi.Mode().IsRegular() && !compiled(p):
			// A script too large (or not permitted) to read would
			// otherwise run unread.
			a.c.unreadable("it runs " + file + ", a script the gate cannot read in full")
		}
		return
	}
	first, _, _ := strings.Cut(content, "\n")
	if !shellScript && strings.HasPrefix(first, "#!") {
		sb := strings.Fields(strings.TrimPrefix(first, "#!"))
		if len(sb) > 0 {
			n := path.Base(sb[0])
			if n == "env" && len(sb) > 1 {
				n = path.Base(sb[1])
			}
			shellScript = shells()[n]
		}
	} else if !shellScript && !interpreters()[lname] {
		shellScript = !strings.HasPrefix(first, "#!") && !strings.ContainsRune(content, 0)
	}
	if shellScript {
		sub := &analysis{c: a.c, place: a.place, env: a.env, cwd: dir}
		// Kept for the loop's typed ask and never entries, which screen
		// what a script runs as they screen what a wrapper runs.
		rs := ranScript{path: file, dir: dir, abs: p}
		if a.c.inScript == 0 {
			// A script the call runs directly: what cannot be read in it
			// is set apart, for a loop that vouches for the script
			// (vouched, warrant.go); a script it runs in turn is not.
			was := a.c.scriptOpaque
			a.c.scriptOpaque = false
			a.c.inScript++
			rs.script = sub.shell(content, depth+1)
			a.c.inScript--
			rs.opaque = a.c.scriptOpaque
			a.c.scriptOpaque = was || rs.opaque
		} else {
			inner := a.c.inScript
			a.c.inScript = 0 // its unreadable parts count as the call's
			rs.script = sub.shell(content, depth+1)
			a.c.inScript = inner
		}
		a.c.scripts = append(a.c.scripts, rs)
		return
	}
	if strings.ContainsRune(content, 0) {
		return // a compiled program: what it does cannot be read
	}
	if m := mentions(content); m != "" {
		a.c.deny("it runs " + file + ", which names " + m)
	}
}

// goRun screens the Go files `go run` is given as a script run by its
// interpreter is screened: a mention of a protected place denies (the
// clause is opaque already: Go code can do anything).
func (a *analysis) goRun(cl *shell.Clause, argv []string) {
	dir := a.clauseDir(cl)
	for _, f := range shell.GoRunFiles(argv) {
		content, ok := readSmall(Resolve(f, dir, a.place.Home), 256<<10)
		if !ok {
			continue
		}
		if m := mentions(content); m != "" {
			a.c.deny("it runs " + f + ", which names " + m)
			return
		}
	}
}

// compiled reports a file whose first 8 KiB hold a NUL byte: a compiled
// program, whose doings the gate does not read (as scriptRun treats a
// small one). A file that cannot be opened is not known to be one.
func compiled(p string) bool {
	f, _, ok := openRegular(p)
	if !ok {
		return false
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	return bytes.IndexByte(head[:n], 0) >= 0
}

// describeNetwork adds "send to <host>" for commands that send data out.
func (a *analysis) describeNetwork(argv []string, lname string) {
	switch lname {
	case "curl", "wget", "nc", "ncat", "netcat", "scp", "rsync", "sftp", "ftp", "http", "https", "xh":
	default:
		return
	}
	upload := lname != "curl" && lname != "wget"
	for _, w := range argv[1:] {
		if strings.HasPrefix(w, "-d") || strings.HasPrefix(w, "--data") || strings.HasPrefix(w, "-F") ||
			strings.HasPrefix(w, "--form") || w == "-T" || strings.HasPrefix(w, "--upload") || strings.HasPrefix(w, "--post") {
			upload = true
		}
		if strings.HasPrefix(w, "@") || strings.Contains(w, "=@") {
			f := w[strings.IndexByte(w, '@')+1:]
			a.c.Texts = append(a.c.Texts, "read "+f, "send "+f)
			if isSecret(f) {
				a.c.Texts = append(a.c.Texts, "send secrets "+f, "read secrets "+f)
			}
		}
	}
	for _, w := range argv[1:] {
		if i := strings.Index(w, "://"); i >= 0 {
			host := w[i+3:]
			if j := strings.IndexAny(host, "/?#"); j >= 0 {
				host = host[:j]
			}
			if upload {
				a.c.Texts = append(a.c.Texts, "send data to "+host, "upload to "+host)
			} else {
				a.c.Texts = append(a.c.Texts, "download from "+host)
			}
		}
	}
}

// isCmdlet reports a PowerShell cmdlet name (Verb-Noun).
func isCmdlet(name string) bool {
	v, n, ok := strings.Cut(name, "-")
	return ok && len(v) > 1 && len(n) > 0 && v[0] >= 'A' && v[0] <= 'Z' && v[1] >= 'a' && v[1] <= 'z' && n[0] >= 'A' && n[0] <= 'Z'
}

// editors write every file they are given.
var editors = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"vi": true, "vim": true, "nvim": true, "nano": true, "emacs": true, "ed": true, "ex": true, "pico": true, "micro": true, "joe": true, "kak": true, "hx": true, "code": true, "subl": true}
})

// extraWrites adds the writes of commands whose output file is an option
// value or every operand: downloads (curl -o, wget -O/-P), editors, and
// mkdir/touch/unzip -d. They are screened like any effect.
func (a *analysis) extraWrites(cl *shell.Clause, lname string) {
	args := cl.Expanded()
	var targets []shell.Word
	valueOf := func(opts ...string) {
		for i := 1; i < len(args); i++ {
			t := args[i].Text
			for _, o := range opts {
				switch {
				case t == o && i+1 < len(args):
					targets = append(targets, args[i+1])
				case strings.HasPrefix(o, "--") && strings.HasPrefix(t, o+"="):
					w := args[i]
					w.Text = strings.TrimPrefix(t, o+"=")
					w.Pattern = ""
					targets = append(targets, w)
				case !strings.HasPrefix(o, "--") && len(t) > len(o) && strings.HasPrefix(t, o) && !strings.HasPrefix(t, "--"):
					w := args[i]
					w.Text = t[len(o):]
					w.Pattern = ""
					targets = append(targets, w)
				}
			}
		}
	}
	switch lname {
	case "cp":
		a.copyLinks(cl, args)
		return
	case "curl":
		valueOf("-o", "--output", "--output-dir", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--stderr")
	case "wget":
		valueOf("-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file", "-a", "--append-output")
	case "unzip":
		valueOf("-d")
	case "7z", "7za":
		valueOf("-o")
	case "tar", "bsdtar", "gtar":
		valueOf("-C", "--directory")
	case "mkdir", "touch", "mkfifo", "mknod":
		for _, w := range args[1:] {
			if !strings.HasPrefix(w.Text, "-") {
				targets = append(targets, w)
			}
		}
	default:
		if !editors()[lname] {
			return
		}
		for _, w := range args[1:] {
			if !strings.HasPrefix(w.Text, "-") && !strings.HasPrefix(w.Text, "+") {
				targets = append(targets, w)
			}
		}
	}
	for _, t := range targets {
		a.effect(cl, shell.Effect{Kind: "write", Path: t, Tree: lname == "tar" || lname == "unzip" || lname == "7z" || lname == "7za" || lname == "bsdtar" || lname == "gtar", Via: lname})
	}
}

// signing denies `ssh-keygen -Y sign` in gitwarrant's namespace: a
// signature there vouches for a warrant amend or a review, which only a
// person gives.
func (a *analysis) signing(cl *shell.Clause, argv []string, lname string) {
	if lname != "ssh-keygen" {
		return
	}
	sign, ns, nsLit := false, "", true
	args := cl.Expanded()
	for i := 1; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "-Y" && i+1 < len(args):
			sign = sign || args[i+1].Text == "sign"
			i++
		case strings.HasPrefix(t, "-Y"):
			sign = sign || t[2:] == "sign"
		case t == "-n" && i+1 < len(args):
			ns, nsLit = args[i+1].Text, args[i+1].Literal
			i++
		case strings.HasPrefix(t, "-n"):
			ns, nsLit = t[2:], args[i].Literal
		}
	}
	if !sign {
		return
	}
	switch {
	case strings.Contains(strings.ToLower(ns), "gitwarrant") || strings.Contains(strings.ToLower(ns), "docket"):
		a.c.deny("ssh-keygen -Y sign -n " + ns + " signs as a person in gitwarrant's namespace (amends, reviews)")
	case !nsLit:
		a.c.deny("ssh-keygen -Y sign with a namespace built at run time may sign in gitwarrant's namespace")
	}
}

// scriptWrite screens the content echo or printf writes into a script
// file, as a file tool's content is (a two-step attack: write, then run).
func (a *analysis) scriptWrite(cl *shell.Clause, argv []string, lname string, depth int) {
	if (lname != "echo" && lname != "printf") || depth >= maxScriptDepth {
		return
	}
	script := false
	for _, r := range cl.Redirs {
		if strings.HasPrefix(r.Op, ">") || r.Op == "&>" || r.Op == "&>>" || r.Op == "<>" {
			script = script || looksLikeScriptName(r.Target.Text)
		}
	}
	if !script {
		return
	}
	body := strings.Join(argv[1:], " ")
	body = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(body)
	a.shell(body, depth+1)
}

// copyLinks treats `cp -s` (symbolic) and `cp -l` (hard) as creating
// links to every source: a link into a protected place is a write there.
func (a *analysis) copyLinks(cl *shell.Clause, args []shell.Word) {
	link := false
	var ops []shell.Word
	for _, w := range args[1:] {
		t := w.Text
		switch {
		case t == "--symbolic-link" || t == "--link":
			link = true
		case strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.ContainsAny(t, "sl"):
			link = true
		case !strings.HasPrefix(t, "-"):
			ops = append(ops, w)
		}
	}
	if !link || len(ops) < 2 {
		return
	}
	dst := ops[len(ops)-1]
	for _, src := range ops[:len(ops)-1] {
		t := src
		a.effect(cl, shell.Effect{Kind: "link", Path: dst, LinkTarget: &t, Via: "cp"})
	}
}

// vague decides an effect whose files are not named on the command line
// (docs/threat-model.md#what-the-gate-protects), and reports whether it
// did. Git moving the work tree to a commit (switch, checkout, reset,
// merge, pull, stash, rebase …) writes what commits hold, not what the
// agent names: it is the loop's to decide. A patch is read and every path
// it touches screened. An archive or git clean under a directory that
// holds a protected place cannot be read: a person decides. find's matches
// stay a deletion of everything below its start.
func (a *analysis) vague(cl *shell.Clause, e shell.Effect) bool {
	via := e.Via
	switch {
	case via == "git apply" || via == "git am" || strings.HasPrefix(via, "patch"):
		a.patches(cl)
		return true
	case via == "git clean":
		if why, hit := a.place.ancestorWhy(Resolve(e.Path.Text, a.cwd, a.place.Home)); hit {
			a.c.unreadable("git clean deletes untracked files, and " + why)
		}
		return true
	case via == "git clone" || via == "git init" || via == "git worktree add":
		// a new work tree or repository inside a protected place
		for _, p := range wordPaths(e.Path) {
			if p.pattern != "" && !p.glob {
				if why, hit := a.place.placeWhy(Resolve(p.text, a.cwd, a.place.Home)); hit {
					a.c.deny(why)
				}
			}
		}
		return true
	case strings.HasPrefix(via, "git "):
		return true
	case strings.HasPrefix(via, "find"):
		return false
	}
	for _, p := range wordPaths(e.Path) {
		if p.pattern == "" || p.glob {
			return false
		}
		abs := Resolve(p.text, a.cwd, a.place.Home)
		if why, hit := a.place.placeWhy(abs); hit {
			a.c.deny(why)
			return true
		}
		if why, hit := a.place.ancestorWhy(abs); hit {
			a.c.unreadable(via + " writes files it does not name under a directory where " + strings.TrimPrefix(why, "it "))
		}
	}
	return true
}

// patches reads the patch files a clause applies (operands and standard
// input) and screens every path they touch; a patch it cannot read makes
// the call unreadable.
func (a *analysis) patches(cl *shell.Clause) {
	var files []string
	for _, r := range cl.Redirs {
		if r.Op == "<" {
			files = append(files, r.Target.Text)
		}
	}
	args := cl.Expanded()
	for i := 1; i < len(args); i++ {
		t := args[i].Text
		switch {
		case t == "-i" && i+1 < len(args):
			files = append(files, args[i+1].Text)
			i++
		case strings.HasPrefix(t, "-") || t == "apply" || t == "am":
		case strings.HasSuffix(t, ".diff") || strings.HasSuffix(t, ".patch") || args[0].Text == "git":
			files = append(files, t)
		}
	}
	if len(files) == 0 {
		a.c.unreadable("a patch is read from standard input")
		return
	}
	for _, f := range files {
		body, ok := readSmall(Resolve(f, a.cwd, a.place.Home), 1<<20)
		if !ok {
			a.c.unreadable("the patch " + f + " cannot be read")
			continue
		}
		for _, line := range strings.Split(body, "\n") {
			var p string
			switch {
			case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
				p = strings.TrimSpace(line[4:])
			case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
				_, p, _ = strings.Cut(line, " to ")
			case strings.HasPrefix(line, "diff --git "):
				f := strings.Fields(line)
				p = f[len(f)-1]
			default:
				continue
			}
			if i := strings.IndexByte(p, '\t'); i >= 0 {
				p = p[:i]
			}
			if p == "/dev/null" || p == "" {
				continue
			}
			for _, cand := range []string{p, strings.TrimPrefix(strings.TrimPrefix(p, "a/"), "b/")} {
				for _, abs := range []string{Resolve(cand, a.cwd, a.place.Home), Lexical(cand, a.cwd, a.place.Home)} {
					if why, hit := a.place.placeWhy(abs); hit {
						a.c.deny("the patch " + f + " " + strings.TrimPrefix(why, "it "))
						return
					}
				}
			}
		}
	}
}

// sourceFormatters rewrite program source only; markupFormatters also
// shell scripts, Markdown, JSON or YAML (the loops, hooks and settings).
var (
	sourceFormatters = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"gofmt": true, "goimports": true, "eslint": true, "black": true, "isort": true,
			"autopep8": true, "rustfmt": true, "clang-format": true, "ruff": true, "terraform": true}
	})
	markupFormatters = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"prettier": true, "shfmt": true, "yq": true, "sd": true, "dprint": true, "biome": true, "deno": true}
	})
)
