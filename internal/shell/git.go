package shell

import (
	"sort"
	"strconv"
	"strings"
)

// Git is a clause whose command is git, with global options parsed and the
// subcommand's long options expanded by unique prefix as git's
// parse-options does. See docs/shell.md#git.
type Git struct {
	// Config holds configuration given on the command line: -c k=v,
	// --config-env, GIT_CONFIG_COUNT/KEY_n/VALUE_n, GIT_CONFIG_PARAMETERS.
	// Keys have section and name lower-cased (subsections keep their case).
	Config map[string][]string
	// Dir is the git directory (--git-dir, GIT_DIR); WorkTree is
	// --work-tree or GIT_WORK_TREE; Chdir is where -C options lead,
	// relative to the clause's directory. Empty when absent.
	Dir, WorkTree, Chdir string
	// Sub is the subcommand ("push", "commit", "config" …), unresolved if
	// it is an alias; "reflog expire"-style for commands with
	// sub-subcommands that have their own options.
	Sub string
	// Args are the words after the subcommand, long options expanded;
	// Options and Operands split them.
	Args     []Word
	Options  []GitOpt
	Operands []Word
	DashDash bool // a "--" separates pathspecs
	// Opaque is true for a code-executing option or key, an ambiguous or
	// unknown option, a non-literal word; Why says which.
	Opaque bool
	Why    string
	Push   *Push        // when Sub is push
	Edits  []ConfigEdit // when Sub is config: what it writes
	// Builtin is false for a subcommand git does not ship (an alias or a
	// git-<name> program on PATH).
	Builtin bool
	// Alias is the alias the subcommand was expanded from ("" if none).
	Alias string
	// order is Options and Operands in the order written: an option's
	// index, or -1-i for operand i (Spellings).
	order []int
}

// ConfigEdit is one change git config makes.
type ConfigEdit struct {
	Op    string // "set", "add", "unset", "rename-section", "remove-section", "edit"
	Key   string // canonical key (section and name lower-cased)
	Value string
	Scope string // "local" (default), "global", "system", "worktree", "file"
	File  string // for --file
}

func (g *Git) opaque(why string) {
	if !g.Opaque {
		g.Opaque, g.Why = true, why
	}
}

// Git returns the clause read as a git command, or false when its command
// is not git.
func (c Clause) Git() (*Git, bool) {
	args := c.Expanded()
	if len(args) == 0 || !isGitName(baseName(args[0].Text)) {
		return nil, false
	}
	if sub, ok := strings.CutPrefix(baseName(args[0].Text), "git-"); ok {
		// the dashed form (git-push, /usr/lib/git-core/git-push) runs
		// the subcommand directly
		w := args[0]
		w.Text = "git"
		sw := Word{Text: sub, Literal: args[0].Literal, Parts: []string{sub}}
		args = append([]Word{w, sw}, args[1:]...)
	}
	return c.gitArgs(args, 0, "")
}

// alias expands a subcommand that is an alias given on the command line
// (-c alias.x=…, GIT_CONFIG_*) or written earlier in the same command (git
// config alias.x …), as git does: the alias's words replace the
// subcommand. A "!" alias runs a shell command instead (see gitRuns).
func (g *Git) alias(c Clause, args []Word, i int) ([]Word, bool) {
	key := "alias." + strings.ToLower(g.Sub)
	v, ok := "", false
	if vs := g.Config[key]; len(vs) > 0 {
		v, ok = vs[len(vs)-1], true
	} else if a, found := c.gitAliases[strings.ToLower(g.Sub)]; found {
		v, ok = a, true
	}
	if !ok || strings.HasPrefix(v, "!") {
		return nil, false
	}
	words := splitString(v)
	if len(words) == 0 {
		return nil, false
	}
	out := append(append(append([]Word{}, args[:i]...), words...), args[i+1:]...)
	return out, true
}

func (c Clause) gitArgs(args []Word, depth int, alias string) (*Git, bool) {
	g := &Git{Config: map[string][]string{}, Alias: alias}
	if !args[0].Literal {
		g.opaque("command name is not literal")
	}
	env := c.Assigns
	if len(c.Env) > 0 {
		env = append(append([]Assign(nil), c.Env...), c.Assigns...)
	}
	g.env(env)
	i := g.globals(args, env)
	for k, vs := range g.Config {
		if why := codeKey(k, vs); why != "" {
			g.opaque(why)
		}
	}
	if i >= len(args) {
		return g, true
	}
	if !args[i].Literal || args[i].Glob {
		g.opaque("git subcommand is not literal")
	}
	g.Sub = args[i].Text
	g.Builtin = gitBuiltins()[g.Sub]
	rest := args[i+1:]
	if !g.Builtin {
		if expanded, ok := g.alias(c, args, i); ok && depth < 8 {
			return c.gitArgs(expanded, depth+1, g.Sub)
		}
		g.opaque("git " + g.Sub + " is not a git command (an alias or an external program)")
	}
	if sub2, ok := gitSubSub()[g.Sub]; ok && len(rest) > 0 && sub2[rest[0].Text] {
		g.Sub += " " + rest[0].Text
		g.Args = append(g.Args, rest[0])
		rest = rest[1:]
	}
	for _, a := range rest {
		if !a.Literal {
			g.opaque("argument is not literal: " + a.Why)
		}
	}
	parseGitArgs(g.Sub, rest, g)
	g.subcommand()
	return g, true
}

// isGitName: git, git.exe, or the dashed form of a command git ships
// (git-push, found in git's exec path).
func isGitName(n string) bool {
	if n == "git" || n == "git.exe" {
		return true
	}
	sub, ok := strings.CutPrefix(n, "git-")
	return ok && gitBuiltins()[strings.TrimSuffix(sub, ".exe")]
}

// globals reads git's own options (before the subcommand) and returns the
// index of the subcommand.
func (g *Git) globals(args []Word, assigns []Assign) int {
	i := 1
	next := func() (Word, bool) {
		if i+1 >= len(args) {
			g.opaque("git option " + args[i].Text + " without its value")
			return Word{}, false
		}
		i++
		return args[i], true
	}
	for ; i < len(args); i++ {
		a := args[i]
		t := a.Text
		if !strings.HasPrefix(t, "-") {
			return i
		}
		if !a.Literal {
			g.opaque("git option is not literal")
		}
		name, val, eq := strings.Cut(t, "=")
		switch name {
		case "-c":
			w, ok := next()
			if !ok {
				return len(args)
			}
			if !w.Literal {
				g.opaque("-c value is not literal: " + w.Why)
			}
			k, v, has := strings.Cut(w.Text, "=")
			if !has {
				v = "true"
			}
			g.addConfig(k, v)
		case "--config-env":
			if !eq {
				w, ok := next()
				if !ok {
					return len(args)
				}
				val = w.Text
			}
			k, env, _ := strings.Cut(val, "=")
			v, known := lookupAssign(assigns, env)
			if !known {
				g.opaque("--config-env takes " + k + " from the environment")
				v = "$" + env
			}
			g.addConfig(k, v)
		case "-C":
			w, ok := next()
			if !ok {
				return len(args)
			}
			if !w.Literal || w.Glob {
				g.opaque("-C to a place known only at run time")
			}
			if w.Text != "" {
				g.Chdir = joinDir(g.Chdir, w.Text)
			}
		case "--git-dir", "--work-tree", "--namespace", "--attr-source", "--super-prefix", "--shallow-file":
			if !eq {
				w, ok := next()
				if !ok {
					return len(args)
				}
				val = w.Text
				if !w.Literal || w.Glob {
					g.opaque(name + " known only at run time")
				}
			}
			switch name {
			case "--git-dir":
				g.Dir = val
			case "--work-tree":
				g.WorkTree = val
			}
		case "--exec-path":
			if eq {
				g.opaque("--exec-path runs git's programs from another directory")
			}
		case "-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--bare", "--literal-pathspecs",
			"--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice",
			"--no-lazy-fetch", "--html-path", "--man-path", "--info-path", "-v", "--version", "-h", "--help", "--list-cmds":
		default:
			g.opaque("unknown git option " + t)
		}
	}
	return i
}

// env reads the git configuration and directories the clause's
// environment gives.
func (g *Git) env(assigns []Assign) {
	get := func(n string) (string, bool) { return lookupAssign(assigns, n) }
	for _, a := range assigns {
		if a.Unset {
			continue
		}
		if strings.HasPrefix(a.Name, "GIT_") && !a.Value.Literal {
			g.opaque(a.Name + " is not literal")
		}
		switch a.Name {
		case "GIT_DIR":
			g.Dir = a.Value.Text
		case "GIT_WORK_TREE":
			g.WorkTree = a.Value.Text
		case "GIT_CONFIG_PARAMETERS":
			for _, kv := range parseConfigParameters(a.Value.Text) {
				g.addConfig(kv[0], kv[1])
			}
		case "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM":
			g.opaque(a.Name + " reads configuration from another file")
		default:
			if GitProgramVar(a.Name) {
				g.opaque(a.Name + " makes git run another program")
			}
		}
	}
	// GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n: git reads COUNT of them; all
	// given are taken, whatever COUNT says.
	var ns []int
	for _, a := range assigns {
		if n, ok := strings.CutPrefix(a.Name, "GIT_CONFIG_KEY_"); ok {
			if k, err := strconv.Atoi(n); err == nil {
				ns = append(ns, k)
			}
		}
	}
	sort.Ints(ns)
	for _, n := range ns {
		k, _ := get("GIT_CONFIG_KEY_" + strconv.Itoa(n))
		v, _ := get("GIT_CONFIG_VALUE_" + strconv.Itoa(n))
		g.addConfig(k, v)
	}
}

func lookupAssign(assigns []Assign, name string) (string, bool) {
	v, ok := "", false
	for _, a := range assigns {
		if a.Name == name {
			v, ok = a.Value.Text, !a.Unset && a.Value.Literal
		}
	}
	return v, ok
}

// parseConfigParameters reads GIT_CONFIG_PARAMETERS: 'key'='value' pairs
// in git's shell quoting, separated by spaces.
func parseConfigParameters(s string) [][2]string {
	var out [][2]string
	i := 0
	readQ := func() (string, bool) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) || s[i] != '\'' {
			return "", false
		}
		i++
		var b strings.Builder
		for i < len(s) {
			if s[i] == '\'' {
				i++
				if strings.HasPrefix(s[i:], `\''`) {
					b.WriteByte('\'')
					i += 3
					continue
				}
				return b.String(), true
			}
			b.WriteByte(s[i])
			i++
		}
		return b.String(), true
	}
	for i < len(s) {
		k, ok := readQ()
		if !ok {
			break
		}
		v := "true"
		if i < len(s) && s[i] == '=' {
			i++
			v, _ = readQ()
		} else if kk, vv, has := strings.Cut(k, "="); has {
			k, v = kk, vv
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// GitProgramVar reports an environment variable that makes git run
// another program or read code from elsewhere (GIT_SSH_COMMAND,
// GIT_EDITOR, GIT_EXEC_PATH, PAGER …). See docs/shell.md#git.
func GitProgramVar(name string) bool {
	switch name {
	case "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
		"GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "GIT_TEMPLATE_DIR",
		"EDITOR", "VISUAL", "PAGER", "GIT_CONFIG_NOSYSTEM", "GIT_SSH_VARIANT", "GIT_ALTERNATE_OBJECT_DIRECTORIES":
		return true
	}
	return false
}

func (g *Git) addConfig(k, v string) {
	k = CanonicalKey(k)
	g.Config[k] = append(g.Config[k], v)
}

// CanonicalKey lower-cases a config key's section and name, keeping the
// subsection's case, as git compares keys.
func CanonicalKey(k string) string {
	first := strings.IndexByte(k, '.')
	last := strings.LastIndexByte(k, '.')
	if first < 0 {
		return strings.ToLower(k)
	}
	return strings.ToLower(k[:first]) + k[first:last] + strings.ToLower(k[last:])
}

// subcommand reads what a subcommand does beyond its options.
func (g *Git) subcommand() {
	switch g.Sub {
	case "push":
		g.Push = g.push()
	case "fetch", "pull", "clone", "ls-remote", "archive", "remote", "submodule":
		for _, o := range g.Options {
			if o.is("upload-pack") || o.is("exec") || o.is("receive-pack") || (g.Sub == "ls-remote" && o.Name == "u") {
				g.opaque("--" + o.Name + " runs a program")
			}
			if g.Sub == "clone" && (o.is("config") || o.is("template")) {
				if o.is("config") {
					k, v, _ := strings.Cut(o.Value, "=")
					if why := codeKey(CanonicalKey(k), []string{v}); why != "" {
						g.opaque(why)
					}
				} else {
					g.opaque("--template copies hooks")
				}
			}
		}
		g.remoteURLs()
	case "config":
		g.config()
	case "rebase":
		for _, o := range g.Options {
			if o.is("exec") {
				g.opaque("rebase --exec runs a command")
			}
		}
		g.remoteURLs()
	case "filter-branch":
		g.opaque("filter-branch rewrites history and runs filters")
	case "init":
		for _, o := range g.Options {
			if o.is("template") {
				g.opaque("--template copies hooks")
			}
		}
	case "update-ref":
		for _, o := range g.Options {
			if o.is("stdin") {
				g.opaque("update-ref --stdin reads its updates from input")
			}
		}
	case "send-pack", "http-push":
		g.opaque("git " + g.Sub + " pushes refs without git push's checks")
		g.Push = g.push()
	case "fast-import", "hook":
		g.opaque("git " + g.Sub + " runs hooks or writes refs from input")
	}
}

// remoteURLs: an ext:: URL runs a command; other transport helpers
// (name::url) run git-remote-<name>.
func (g *Git) remoteURLs() {
	for _, w := range g.Operands {
		t := strings.ToLower(w.Text)
		if strings.HasPrefix(t, "ext::") || strings.Contains(t, "::") && !strings.Contains(t, "://") {
			g.opaque("transport " + w.Text + " runs a program")
		}
	}
}

// config reads what git config writes.
func (g *Git) config() {
	scope, file := "local", ""
	var mode string
	for _, o := range g.Options {
		switch {
		case o.is("global"), o.is("system"), o.is("local"), o.is("worktree"):
			scope = o.Name
		case o.is("file"), o.Name == "f":
			scope, file = "file", o.Value
		case o.is("blob"):
			scope = "blob"
		case o.is("add"), o.is("unset"), o.is("unset-all"), o.is("replace-all"), o.is("rename-section"),
			o.is("remove-section"), o.is("edit"), o.Name == "e", o.is("get"), o.is("get-all"), o.is("get-regexp"),
			o.is("get-urlmatch"), o.is("list"), o.Name == "l", o.is("get-color"), o.is("get-colorbool"):
			mode = o.Name
			if mode == "e" {
				mode = "edit"
			}
			if mode == "l" {
				mode = "list"
			}
		}
	}
	ops := g.Operands
	// git 2.46+: git config <subcommand>
	if mode == "" && len(ops) > 0 {
		switch ops[0].Text {
		case "set", "unset", "rename-section", "remove-section", "edit", "get", "list":
			mode = ops[0].Text
			ops = ops[1:]
		}
	}
	edit := func(op string, key, val string) {
		g.Edits = append(g.Edits, ConfigEdit{Op: op, Key: CanonicalKey(key), Value: val, Scope: scope, File: file})
	}
	switch mode {
	case "get", "get-all", "get-regexp", "get-urlmatch", "list", "get-color", "get-colorbool":
		return
	case "edit":
		edit("edit", "", "")
		g.opaque("git config --edit runs an editor on the configuration")
		return
	case "unset", "unset-all":
		if len(ops) > 0 {
			edit("unset", ops[0].Text, "")
		}
	case "rename-section", "remove-section":
		if len(ops) > 0 {
			v := ""
			if len(ops) > 1 {
				v = ops[1].Text
			}
			edit(mode, ops[0].Text, v)
		}
	case "add", "replace-all", "set":
		if len(ops) > 1 {
			op := "set"
			if mode == "add" {
				op = "add"
			}
			edit(op, ops[0].Text, ops[1].Text)
		}
	default:
		if len(ops) > 1 {
			edit("set", ops[0].Text, ops[1].Text)
		}
	}
	for _, e := range g.Edits {
		if why := codeKey(e.Key, []string{e.Value}); why != "" {
			g.opaque("sets " + why)
		}
		if e.Op == "rename-section" || e.Op == "remove-section" {
			g.opaque("git config --" + e.Op + " rewrites a whole section")
		}
	}
}
