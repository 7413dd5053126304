// Package typed reads a Claude Code tool call as the units typed warrant
// entries decide — each clause of a Bash command, each file it reads or
// writes, each path a file tool touches, a fetched host, an MCP tool — and
// decides them (docs/typed-entries.md#rules-of-meaning). It runs no
// processes; the only I/O is resolving symbolic links in paths.
package typed

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// Env is where a call runs.
type Env struct {
	Root   string // the repository's work tree, absolute
	Home   string // the home directory ("" if unknown)
	Cwd    string // the call's working directory, absolute
	Branch string // the current branch ("" when detached or unknown)
	Remote string // the default remote ("" means origin)
	// Resolve turns an absolute path into the path it names (symbolic
	// links followed); nil uses ResolvePath.
	Resolve func(string) string
	// GitConfig returns the configuration git reads from its files
	// (canonical keys, every value), for resolving a push or fetch as the
	// repository would; nil means none.
	GitConfig func() map[string][]string

	resolvedOnce bool // Root and Home are resolved already (Resolved)
}

func (e Env) gitConfig() map[string][]string {
	if e.GitConfig == nil {
		return nil
	}
	return e.GitConfig()
}

// Unit is one thing a call does that an entry must allow.
type Unit struct {
	Call  loops.Call
	Canon string   // canonical form, as explain shows it
	Via   []string // how a clause was reached (nil at the top level)
	// Opaque says why the unit cannot be allowed ("" when it can).
	Opaque string
	// Effect is true for a file a clause reads or writes, listed after it.
	Effect bool
	// Screened is true for a unit only ask and never look at: a command
	// reached through a wrapper (the wrapper's own clause is what an entry
	// must allow) and a shell re-reading a literal string (the clauses it
	// runs are what entries must allow).
	Screened bool
	// Kind is what the unit does (docs/typed-entries.md#kinds): an entry
	// allows it only from a list of that kind or a wider one.
	Kind Kind
}

// ResolvePath follows symbolic links in every existing component of an
// absolute path; the part that does not exist yet is kept as written.
func ResolvePath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	if dir == "" || dir == p {
		return p
	}
	parent := strings.TrimSuffix(dir, string(filepath.Separator))
	if parent == "" || parent == p {
		return p
	}
	// A dangling final link names where it points.
	if t, err := os.Readlink(p); err == nil {
		if !filepath.IsAbs(t) {
			t = filepath.Join(parent, t)
		}
		return filepath.Clean(t)
	}
	return filepath.Join(ResolvePath(parent), base)
}

func (e Env) path(p string) loops.FilePath {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(e.Home, strings.TrimPrefix(p, "~"))
	case !filepath.IsAbs(p):
		p = filepath.Join(e.Cwd, p)
	}
	return loops.FilePath{Abs: filepath.ToSlash(e.resolver()(filepath.Clean(p))), Root: filepath.ToSlash(e.Root), Home: filepath.ToSlash(e.Home)}
}

func (e Env) resolver() func(string) string {
	if e.Resolve == nil {
		return ResolvePath
	}
	return e.Resolve
}

// Resolved returns env with its root and home resolved, as every path of
// a call is: done once for a call's units and the units of the scripts it
// runs.
func (e Env) Resolved() Env { return e.resolved() }

// resolved returns env with its root and home resolved once, as every path
// of the call is.
func (e Env) resolved() Env {
	if e.resolvedOnce {
		return e
	}
	e.resolvedOnce = true
	res := e.resolver()
	if e.Root != "" {
		e.Root = res(e.Root)
	}
	if e.Home != "" {
		e.Home = res(e.Home)
	}
	return e
}

func (e Env) canonPath(f loops.FilePath) string {
	if rel, ok := f.Rel(); ok {
		return rel
	}
	return f.Abs
}

// Units reads a tool call. An input it cannot read gives one opaque unit,
// never an error that could be mistaken for an allow.
func Units(tool string, input map[string]any, env Env) []Unit {
	env = env.resolved()
	str := func(k string) string { s, _ := input[k].(string); return s }
	file := func(kind, key string) []Unit {
		p := str(key)
		if strings.TrimSpace(p) == "" {
			return []Unit{{Canon: tool, Opaque: fmt.Sprintf("%s has no %s", tool, key)}}
		}
		f := env.path(p)
		return []Unit{{Call: loops.Call{Kind: kind, Path: f}, Canon: kind + " " + env.canonPath(f), Kind: fileKind(kind, env.canonPath(f))}}
	}
	search := func(dirKey, globKey string) []Unit {
		dir := str(dirKey)
		if dir == "" {
			dir = env.Cwd
		}
		f := env.path(dir)
		g := str(globKey)
		// Grep reads every file below its path; Glob lists names.
		u := Unit{Call: loops.Call{Kind: loops.ToolRead, Path: f, Glob: g, Tree: tool == "Grep"}, Canon: "Read " + env.canonPath(f), Kind: Kind{Verb: loops.Read}}
		if g != "" {
			u.Canon += " " + g
		}
		return []Unit{u}
	}
	switch {
	case tool == "Read":
		return file(loops.ToolRead, "file_path")
	case tool == "NotebookRead":
		return file(loops.ToolRead, "notebook_path")
	case tool == "LS":
		return file(loops.ToolRead, "path")
	case tool == "Glob":
		return search("path", "pattern")
	case tool == "Grep":
		return search("path", "glob")
	case tool == "Write" || tool == "Edit" || tool == "MultiEdit":
		return file(loops.ToolEdit, "file_path")
	case tool == "NotebookEdit":
		return file(loops.ToolEdit, "notebook_path")
	case tool == "Bash":
		return bashUnits(str("command"), env)
	case tool == "WebFetch":
		host, err := loops.URLHost(str("url"))
		u := Unit{Call: loops.Call{Kind: loops.ToolWebFetch, Host: host}, Canon: "WebFetch " + host, Kind: Kind{Verb: loops.Read}}
		if err != nil {
			u.Canon, u.Opaque = "WebFetch "+str("url"), err.Error()
		}
		return []Unit{u}
	case tool == "WebSearch":
		return []Unit{{Call: loops.Call{Kind: loops.ToolWebSearch}, Canon: "WebSearch " + str("query"), Kind: Kind{Verb: loops.Read}}}
	case strings.HasPrefix(tool, "mcp__"):
		return []Unit{{Call: loops.Call{Kind: loops.ToolMCP, MCP: tool}, Canon: tool}}
	}
	return []Unit{{Canon: tool, Opaque: fmt.Sprintf("no typed entry names the %s tool", tool)}}
}

func bashUnits(cmd string, env Env) []Unit {
	if strings.TrimSpace(cmd) == "" {
		return []Unit{{Canon: "Bash", Opaque: "the command is empty"}}
	}
	s := shell.Parse(cmd)
	if s.Opaque {
		return []Unit{{Canon: "Bash " + cmd, Opaque: "not readable as shell: " + s.Why}}
	}
	var out []Unit
	rewriter := ""
	for _, c := range s.Clauses {
		u := clauseUnit(c, env)
		if len(u.Kind.Manifests) > 0 && rewriter != "" {
			// package.json is read as it is now, before the call runs
			// (docs/typed-entries.md#kinds).
			u.Kind = Kind{Verb: loops.Send, Cmd: u.Kind.Cmd, Why: "runs a package script after `" + rewriter +
				"`, which may change package.json first, so what it runs cannot be read"}
		}
		if rewriter == "" && rewritesManifests(c) {
			rewriter = c.Text
		}
		if b, moved := switchedBranch(c, env); moved {
			// The clauses after it run on that branch: `git switch main;
			// git commit --amend` rewrites main.
			env.Branch = b
		}
		// a substitution that only prints a literal text ("$(cat <<'EOF'
		// …)" as a message) runs nothing an entry must allow
		own := reparsed(c.Via) && !(substituted(c.Via) && c.PrintsLiteral()) || findRun(c)
		u.Screened = !own || shellString(c)
		out = append(out, u)
		for _, e := range effectUnits(c, env) {
			e.Screened = e.Screened || !own
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return []Unit{{Canon: "Bash " + cmd, Opaque: "no command"}}
	}
	return out
}

// ScriptUnits reads the clauses of a shell script a call runs (the gate
// reads it, docs/threat-model.md#scripts-the-agent-wrote) as units only ask
// and never entries look at: the clause running the script is what an
// entry must allow (docs/typed-entries.md#project-scripts).
func ScriptUnits(s *shell.Script, path string, env Env) []Unit {
	if s == nil {
		return nil
	}
	env = env.resolved()
	via := "script " + path
	var out []Unit
	for _, c := range s.Clauses {
		u := clauseUnit(c, env)
		u.Via, u.Screened = append([]string{via}, c.Via...), true
		out = append(out, u)
		for _, e := range effectUnits(c, env) {
			e.Via, e.Screened = append([]string{via}, e.Via...), true
			out = append(out, e)
		}
	}
	return out
}

func clauseUnit(c shell.Clause, env Env) Unit {
	u := Unit{Call: loops.Call{Kind: loops.ToolBash}, Via: c.Via}
	var cmd loops.Command
	for _, a := range c.Assigns {
		cmd.Assigns = append(cmd.Assigns, loops.EnvAssign{Name: a.Name, Value: a.Value.Text})
		if !a.Value.Literal || a.Unset {
			u.Opaque = "assignment " + a.Name + " is built at run time"
		}
	}
	for i, w := range c.Expanded() {
		cmd.Argv = append(cmd.Argv, loops.Arg{Text: w.Text, Glob: w.Glob})
		if !w.Literal && u.Opaque == "" && !shell.EchoesParams(c.Argv, i, w) {
			u.Opaque = "word " + w.Text + " is built at run time"
		}
	}
	if c.Opaque {
		u.Opaque = c.Why
	}
	g, isGit := c.Git()
	if isGit {
		if g.Opaque && u.Opaque == "" {
			u.Opaque = g.Why
		}
		if g.Push != nil {
			cmd.Push = pushOf(g, env)
		}
		if g.Fetches() { // only a fetch reads the configuration (four files)
			if d := shell.FetchDestinations(g, env.gitConfig()); len(d) > 0 && u.Opaque == "" {
				u.Opaque = "git " + g.Sub + " writes the local ref " + d[0].Dst + ", as update-ref does"
			}
		}
		if !g.Opaque {
			cmd.Spelt = []loops.Arg{{Text: "git", Role: 'w'}}
			for _, t := range g.Spellings() {
				cmd.Spelt = append(cmd.Spelt, loops.Arg{Text: t.Text, Role: t.Role})
			}
			if f := attachedSplit(cmd.Argv, g.Sub); f != nil {
				cmd.Forms = append(cmd.Forms, f)
			}
		} else {
			alt := []loops.Arg{{Text: "git"}}
			for _, t := range g.Spellings() {
				alt = append(alt, loops.Arg{Text: t.Text})
			}
			cmd.Alts = append(cmd.Alts, alt)
		}
	}
	if f := findReading(cmd.Argv); f != nil {
		cmd.Forms = append(cmd.Forms, f)
	}
	if len(cmd.Argv) == 0 && u.Opaque == "" {
		u.Opaque = "no command (only assignments or redirections)"
	}
	if loops.RunsLocalFile(cmd.Argv) {
		// Resolved only for a command that runs a file by a relative
		// path: the one kind of entry that depends on where it runs.
		cmd.AtRoot = env.Root != "" && (c.Dir == "" && filepath.Clean(env.Cwd) == env.Root || // as written: no syscall
			env.path(c.Dir).Abs == filepath.ToSlash(env.Root))
	}
	u.Call.Cmd = cmd
	if u.Opaque == "" {
		u.Kind = clauseKind(c, g, env, 0)
	} else if knownTool(c) {
		// A tool the tables know, given words no one can read (`xargs
		// npm`, `find -exec npm publish`): as wide as the tool may be, so
		// the wrapper that runs it is too.
		u.Kind = Kind{Verb: loops.Send, Cmd: c.Name(), Why: "is given words that cannot be read (" + u.Opaque + ")"}
	}
	u.Canon = canonical(cmd)
	if c.Dir != "" {
		u.Canon = "(in " + c.Dir + ") " + u.Canon
	}
	return u
}

// findRun reports a clause find -exec runs that only reads the paths find
// gives it: an entry must allow it as written, as if it stood alone.
// substituted reports a clause reached through a command substitution.
func substituted(via []string) bool {
	return slices.Contains(via, "$()") || slices.Contains(via, "``")
}

func findRun(c shell.Clause) bool {
	if c.Opaque || len(c.Via) != 1 || !strings.HasPrefix(c.Via[0], "find -") || len(c.Argv) == 0 {
		return false
	}
	return shell.ReadsOnly(c.Argv[0].Text)
}

// findReading spells a find command whose every -exec (-execdir, -ok,
// -okdir) runs a command that only reads the paths it finds (`find .
// -name '*.go' -exec cat {} +`) without them: what it runs is a clause of
// its own, which an entry must allow too (docs/typed-entries.md#commands);
// nil for any other command.
func findReading(argv []loops.Arg) []loops.Arg {
	if len(argv) < 3 || path.Base(argv[0].Text) != "find" {
		return nil
	}
	var out []loops.Arg
	cut := false
	for i := 0; i < len(argv); i++ {
		switch argv[i].Text {
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 >= len(argv) || !shell.ReadsOnly(argv[i+1].Text) {
				return nil
			}
			j := i + 1
			for j < len(argv) && argv[j].Text != ";" && !(argv[j].Text == "+" && strings.Contains(argv[j-1].Text, "{}")) {
				j++
			}
			i, cut = j, true
			continue
		}
		out = append(out, argv[i])
	}
	if !cut {
		return nil
	}
	return out
}

// attachedSplit spells a git command's short options written with their
// value attached apart (`git checkout -bfeature` as `git checkout -b
// feature`), as allow entries name them; nil when none is so written.
// Only the words after the subcommand are looked at.
func attachedSplit(argv []loops.Arg, sub string) []loops.Arg {
	first, _, _ := strings.Cut(sub, " ")
	at := -1
	for i := 1; i < len(argv); i++ {
		if argv[i].Text == first {
			at = i
			break
		}
	}
	if at < 0 {
		return nil
	}
	var out []loops.Arg
	for i, a := range argv {
		if i > at && a.Text != "--" {
			if opt, val, ok := shell.SplitAttached(sub, a.Text); ok {
				if out == nil {
					out = append([]loops.Arg{}, argv[:i]...)
				}
				out = append(out, loops.Arg{Text: opt}, loops.Arg{Text: val})
				continue
			}
		}
		if a.Text == "--" && i > at {
			if out != nil {
				out = append(out, argv[i:]...)
			}
			return out
		}
		if out != nil {
			out = append(out, a)
		}
	}
	return out
}

// pushOf turns the parser's reading of a push into plain values, with HEAD
// and the default remote resolved.
func pushOf(g *shell.Git, env Env) *loops.Push {
	p := g.PushIn(env.gitConfig(), env.Branch)
	out := &loops.Push{Remote: p.Remote, Current: env.Branch, All: p.All || p.Matching, Mirror: p.Mirror, Tags: p.Tags,
		Force: p.Force, Delete: p.Delete || p.Prune}
	if out.Remote == "" {
		out.Remote = env.Remote
		if out.Remote == "" {
			out.Remote = "origin"
		}
	}
	for _, u := range p.Updates {
		dst := u.Dst
		if dst == "HEAD" || dst == "refs/heads/HEAD" {
			dst = env.Branch
			if dst == "" {
				dst = "HEAD" // detached: names no branch an entry can allow
			}
		}
		out.Updates = append(out.Updates, loops.RefUpdate{Src: u.Src, Dst: dst, Force: u.Force, Delete: u.Delete})
	}
	for _, o := range g.Options {
		switch o.Name {
		case "force", "force-with-lease", "delete", "all", "branches", "mirror", "tags", "prune", "set-upstream", "u",
			"verbose", "v", "quiet", "q", "progress":
			continue
		}
		name := "--" + o.Name
		if len(o.Name) == 1 {
			name = "-" + o.Name
		}
		if o.Negated {
			name = "--no-" + o.Name
		}
		out.Options = append(out.Options, name)
	}
	return out
}

func effectUnits(c shell.Clause, env Env) []Unit {
	out := gitAdded(c, env)
	branch := checkoutBranch(c, env)
	for _, e := range c.Effects() {
		if e.Vague || strings.HasPrefix(e.Via, "git stash") || branch != "" && e.Via == "git checkout" && e.Path.Text == branch {
			// Inherent to the command the clause's entry names (a stash
			// of paths puts them back as HEAD has them; self-protection
			// screens them).
			continue
		}
		kind := loops.ToolEdit
		if e.Kind == "read" {
			kind = loops.ToolRead
		}
		u := Unit{Effect: true, Via: c.Via}
		if !e.Path.Literal {
			u.Canon, u.Opaque = kind+" "+e.Path.Text, "a path built at run time ("+e.Via+")"
			out = append(out, u)
			continue
		}
		p := e.Path.Text
		if e.Path.Tilde {
			p = "~" + strings.TrimPrefix(p, "~")
		}
		f := env.path(p)
		u.Call = loops.Call{Kind: kind, Path: f, Tree: e.Tree && kind == loops.ToolRead}
		u.Kind = fileKind(kind, env.canonPath(f))
		u.Canon = kind + " " + env.canonPath(f) + " (" + e.Kind + " by " + e.Via + ")"
		if e.Via == "git restore --staged" {
			// The index only: the clause's entry covers it; ask and
			// never entries and self-protection still screen the path.
			u.Screened = true
		}
		if e.Via == "mkdir" {
			// A new empty directory changes no file: inside the
			// repository the clause's entry covers it (ask and never
			// entries and self-protection still screen it); outside,
			// a person decides (docs/typed-entries.md#commands).
			if _, inside := f.Rel(); inside {
				u.Screened = true
			} else {
				u.Opaque = "mkdir creates a directory outside the repository"
			}
		}
		if strings.HasPrefix(e.Via, "go -") {
			// The go command's output files and profiles: inside the
			// repository they are the build's own output, which the
			// clause's entry covers (ask and never entries still screen
			// them); outside, a person decides.
			if _, inside := f.Rel(); inside {
				u.Screened = true
			} else {
				u.Opaque = e.Via + " writes outside the repository"
			}
		}
		out = append(out, u)
	}
	return out
}

// checkoutBranch returns the branch `git checkout NAME` moves to, when
// NAME (its one operand, no `--`) is a local branch of the repository:
// git then switches to it and rewrites no path named NAME, so the word is
// not a path an Edit entry must allow (the move itself is the clause's,
// as for git switch). "" otherwise.
func checkoutBranch(c shell.Clause, env Env) string {
	g, ok := c.Git()
	if !ok || g.Sub != "checkout" || g.DashDash || len(g.Operands) != 1 || g.Opaque || !g.Operands[0].Literal {
		return ""
	}
	name := g.Operands[0].Text
	if !LocalBranch(env.Root, name) {
		return ""
	}
	return name
}

// canonical writes a command the way an entry would spell it: assignments,
// then the arguments, each quoted only when it must be.
func canonical(c loops.Command) string {
	var parts []string
	for _, a := range c.Assigns {
		parts = append(parts, a.Name+"="+quoteArg(a.Value, false))
	}
	for _, a := range c.Argv {
		parts = append(parts, quoteArg(a.Text, a.Glob))
	}
	return strings.Join(parts, " ")
}

func quoteArg(s string, glob bool) string {
	if s == "" {
		return "''"
	}
	special := " \t\n'\"\\$`|&;<>()#"
	if !glob {
		special += "*?["
	}
	if !strings.ContainsAny(s, special) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fileKind is the kind of a file unit: reading it reads, writing it
// changes the work tree.
func fileKind(tool, path string) Kind {
	if tool == loops.ToolEdit {
		return Kind{Verb: loops.Change, Cmd: "Edit " + path, Why: "writes " + path}
	}
	return Kind{Verb: loops.Read}
}

// shellString reports a shell run on a literal string (`bash -c 'git
// status'`): the parser re-reads the string into clauses of their own.
func shellString(c shell.Clause) bool {
	switch c.Name() {
	case "sh", "bash", "zsh", "dash":
	default:
		return false
	}
	if c.Opaque {
		return false
	}
	for _, w := range c.Argv[1:] {
		t := w.Text
		if strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "c") {
			return true
		}
	}
	return false
}

// gitAdded reads the paths `git add` stages as reads: what is staged is
// committed and pushed, so a never entry on a file (`Read(.env)`) must
// screen staging it too.
func gitAdded(c shell.Clause, env Env) []Unit {
	g, ok := c.Git()
	if !ok || g.Sub != "add" {
		return nil
	}
	var out []Unit
	for _, w := range g.Operands {
		if !w.Literal {
			continue // the clause is opaque already
		}
		f := env.path(w.Text)
		out = append(out, Unit{Effect: true, Via: c.Via, Call: loops.Call{Kind: loops.ToolRead, Path: f},
			Canon: "Read " + env.canonPath(f) + " (staged by git add)", Kind: Kind{Verb: loops.Read}})
	}
	return out
}
