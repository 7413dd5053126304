package gate

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// Call is a tool call read as typed actions (docs/threat-model.md).
type Call struct {
	Payload hook.Payload
	Tool    string // canonical tool name (`bash` is Bash)
	Kind    string // hook.KindShell, KindChange, …
	// Verb and Target are the call as a warrant check: what the record
	// keeps and what routing reads (hook.MapIn).
	Verb   loops.Verb
	Target string
	MapErr error
	// Texts are what ask and never entries are screened against: the
	// canonical form of every clause (unquoted argv, comments gone) and
	// the descriptions derived from it ("force push to main", "write to
	// .github/workflows/ci.yml", "read .env").
	Texts   []string
	Actions []Action
	// Denied is the self-protection reason, "" when none applies.
	Denied string
	// Opaque: some part of the call cannot be read, so nothing allows it.
	Opaque bool
	// Unreadable says why part of the call that could touch a protected
	// place cannot be read (a command named by a variable, an interpreter
	// one-liner, a write to a path built at run time): a person decides,
	// even when no loop covers the call.
	Unreadable string
	// loopVia says how the deciding loop was chosen (session.go's Via…),
	// for the record.
	loopVia string
	// typed is the loop's typed decision, set by typedScreen (typed.go).
	typed *typed.Decision
	// gitConfig is the repository's configuration, read by repoConfig
	// (git.go) the first time a push or fetch needs it.
	gitConfig     map[string][]string
	gitConfigRead bool
	// head is HEAD as the place's repository holds it (trimmed), read by
	// headOf once per call; headOK says it could be read.
	head             string
	headRead, headOK bool
	// Secret names a secret or key file the call touches: no entry allows
	// such a call on its own, a person decides.
	Secret string
	// scripts are the shell scripts the call runs, as read (scriptRun).
	scripts []ranScript
	// inScript counts the scripts being read below the call's own
	// clauses; scriptOpaque says some part of a script the call runs
	// directly could not be read, and callOpaque that some part of the
	// call itself (or of a script such a script runs) could not. A vouched
	// script's unreadable parts do not make the call opaque (vouched).
	inScript     int
	scriptOpaque bool
	callOpaque   bool
}

// ranScript is a shell script a call runs: as named, where it runs, and
// its parse; abs is the file read, and opaque says part of it could not
// be read (only for a script the call's own clauses run).
type ranScript struct {
	path, dir string
	script    *shell.Script
	abs       string
	opaque    bool
	// committed: the loop vouches for it only as HEAD holds it (a
	// Makefile: docs/typed-entries.md#make).
	committed bool
}

// Action is one thing a call does. typed entries match these.
type Action struct {
	Kind    string   // "run", "write", "delete", "link", "chmod", "read", "tool", "agent"
	Argv    []string // run: the unquoted argv
	Assigns []string // run: NAME=VALUE prefix assignments
	Path    string   // file actions: the resolved absolute path
	Rel     string   // file actions: relative to the work tree when inside it
	Opaque  bool
	Why     string
}

func (c *Call) deny(why string) {
	if c.Denied == "" {
		c.Denied = why
	}
}

func (c *Call) unreadable(why string) {
	c.opaque()
	if c.Unreadable == "" {
		c.Unreadable = why
	}
}

// opaque marks part of the call unreadable: of a script it runs (while one
// is read), else of the call.
func (c *Call) opaque() {
	c.Opaque = true
	if c.inScript > 0 {
		c.scriptOpaque = true
	} else {
		c.callOpaque = true
	}
}

// analysis carries what one Analyse needs.
type analysis struct {
	c     *Call
	place Place
	env   Env
	cwd   string
}

// Analyse reads a payload into a Call and applies self-protection. It does
// no I/O that can block: it stats and reads link targets, small script
// files and the binary it may be compared with, and takes no lock.
func Analyse(pl hook.Payload, place Place, env Env) *Call {
	c := &Call{Payload: pl}
	c.Tool, c.Kind = hook.Kind(pl.ToolName)
	c.Verb, c.Target, c.MapErr = hook.MapIn(pl, place.Root)
	cwd := pl.Cwd
	if cwd == "" {
		cwd = env.Cwd
	}
	a := &analysis{c: c, place: place, env: env, cwd: cwd}
	switch c.Kind {
	case hook.KindChange:
		for _, p := range hook.StringsOf(pl.ToolInput, hook.PathKeys...) {
			if strings.TrimSpace(p) == "" {
				continue
			}
			a.fileWrite("write", p, cwd)
		}
		a.scriptContent(pl)
	case hook.KindShell:
		cmds := hook.StringsOf(pl.ToolInput, "command")
		for _, cmd := range cmds {
			if strings.EqualFold(c.Tool, "PowerShell") {
				a.opaqueText(cmd, "a PowerShell command (only POSIX shell is parsed)")
				continue
			}
			s := a.shell(cmd, 0)
			if c.MapErr == nil {
				c.Verb = a.kind(s) // kind.go
			}
		}
	case hook.KindRead:
		for _, p := range hook.StringsOf(pl.ToolInput, hook.PathKeys...) {
			abs := Resolve(p, cwd, place.Home)
			rel := place.rel(abs)
			c.Actions = append(c.Actions, Action{Kind: "read", Path: abs, Rel: rel})
			c.Texts = append(c.Texts, "read "+rel)
			// Grep searches everything below its path.
			if isSecret(abs) || c.Tool == "Grep" && place.secretsBelow(abs) {
				c.Texts = append(c.Texts, "read secrets "+rel)
				c.Secret = rel
			}
		}
		// Grep's glob and Glob's pattern name files too: screened as reads
		// of what they could match (a glob for .env reads secrets).
		globKeys := []string{"glob"} // Grep's pattern is a regular expression, not a path
		if c.Tool == "Glob" {
			globKeys = append(globKeys, "pattern")
		}
		for _, g := range hook.StringsOf(pl.ToolInput, globKeys...) {
			c.Texts = append(c.Texts, "read "+g)
			if isSecret(strings.Trim(g, "*?[]{}")) {
				c.Texts = append(c.Texts, "read secrets "+g)
			}
		}
		if c.Target != "" {
			c.Texts = append(c.Texts, c.Target)
		}
	case hook.KindAgent:
		c.Actions = append(c.Actions, Action{Kind: "agent"})
		c.Texts = append(c.Texts, c.Target)
	default:
		a.tool()
	}
	return c
}

// fileWrite screens a path written by a file tool (or an MCP tool).
func (a *analysis) fileWrite(kind, p, cwd string) {
	abs := Resolve(p, cwd, a.place.Home)
	lex := Lexical(p, cwd, a.place.Home)
	rel := a.place.rel(abs)
	a.c.Actions = append(a.c.Actions, Action{Kind: kind, Path: abs, Rel: rel})
	a.c.Texts = append(a.c.Texts, "write to "+rel)
	if isSecret(abs) {
		a.c.Texts = append(a.c.Texts, "write secrets "+rel)
		a.c.Secret = rel
	}
	if lr := a.place.rel(lex); lr != rel {
		a.c.Texts = append(a.c.Texts, "write to "+lr)
	}
	for _, cand := range []string{abs, lex} {
		if why, hit := a.place.placeWhy(cand); hit {
			a.c.deny(why)
			return
		}
	}
	a.hardLink(abs)
}

// scriptContent screens what a file tool writes into a script: a file that
// will be run (a shell script, by extension, name or #! line) gets the same
// self-protection as a command, so writing it first and running it second
// gets no further than running it at once.
func (a *analysis) scriptContent(pl hook.Payload) {
	paths := hook.StringsOf(pl.ToolInput, hook.PathKeys...)
	script := false
	for _, p := range paths {
		script = script || looksLikeScriptName(p)
	}
	for _, content := range hook.StringsOf(pl.ToolInput, "content", "new_string", "new_source") {
		if script || strings.HasPrefix(content, "#!") {
			a.shell(content, 1)
		}
	}
	for _, p := range paths {
		if makeFile(p) {
			// A recipe is shell, but make's own $(VAR) syntax would make
			// every Makefile unreadable: only a denial carries over.
			for _, content := range hook.StringsOf(pl.ToolInput, "content", "new_string", "new_source") {
				var probe Call
				(&analysis{c: &probe, place: a.place, env: a.env, cwd: a.cwd}).shell(content, 1)
				if probe.Denied != "" {
					a.c.deny("it writes " + p + ", whose recipes make runs: " + probe.Denied)
				}
			}
		}
	}
	raw := pl.ToolInput
	var in struct {
		Edits []struct {
			New string `json:"new_string"`
		} `json:"edits"`
	}
	if json.Unmarshal(raw, &in) == nil && script {
		for _, e := range in.Edits {
			a.shell(e.New, 1)
		}
	}
}

func looksLikeScriptName(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	switch filepath.Ext(base) {
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return true
	case "":
		return base != "" && base != "." && !makeFile(base) && !strings.HasPrefix(base, ".")
	}
	return false
}

// makeFile reports a Makefile or justfile by its name: its recipes are
// shell that `make` runs later.
func makeFile(p string) bool {
	switch strings.ToLower(filepath.Base(p)) {
	case "makefile", "gnumakefile", "justfile":
		return true
	}
	return false
}

// rel shows an absolute path relative to the work tree when inside it.
func (pl Place) rel(abs string) string {
	if pl.Root != "" {
		if r, err := filepath.Rel(pl.Root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(r)
		}
	}
	return filepath.ToSlash(abs)
}

// isSecret reports a file that holds secrets or keys by its name or the
// folder it is in.
func isSecret(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	switch {
	case envTemplate(base):
		return false
	case base == ".env", strings.HasPrefix(base, ".env."), base == ".netrc", base == ".npmrc", base == ".pypirc",
		base == "credentials", strings.HasPrefix(base, "id_rsa"), strings.HasPrefix(base, "id_ed25519"),
		strings.HasPrefix(base, "id_ecdsa"), strings.HasSuffix(base, ".pem"), strings.HasSuffix(base, ".key"),
		strings.HasSuffix(base, ".p12"), strings.HasSuffix(base, ".pfx"), strings.HasSuffix(base, ".keystore"):
		return true
	case base == "environ" && strings.HasPrefix(filepath.ToSlash(p), "/proc/"):
		return true // a process's environment: tokens and keys
	}
	low := strings.ToLower(filepath.ToSlash(p))
	for _, w := range []string{"/.ssh/", "/.aws/", "/.gnupg/", "/.kube/config", ".docker/config.json", "/.config/gh/"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	// A word that says secret in a file's path, unless the file is source
	// code or documentation named for what it handles (PasswordReset.go,
	// docs/credentials-setup.md) rather than a store of one (secrets.py,
	// password.txt).
	stem, ext, _ := strings.Cut(base, ".")
	code := sourceExt[strings.ToLower(filepath.Ext(base))] && ext != ""
	for _, w := range []string{"secret", "credential", "password", "passwd", "private_key", "privatekey"} {
		if strings.Contains(low, w) && (!code || stem == w || stem == w+"s") {
			return true
		}
	}
	return false
}

// sourceExt are the extensions of source code and documentation: a file
// of one is named for what it handles, not a store of secrets.
var sourceExt = map[string]bool{".go": true, ".py": true, ".js": true, ".jsx": true, ".ts": true, ".tsx": true,
	".mjs": true, ".cjs": true, ".java": true, ".kt": true, ".kts": true, ".rs": true, ".rb": true, ".php": true,
	".cs": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".swift": true, ".scala": true,
	".vue": true, ".svelte": true, ".md": true, ".rst": true, ".html": true, ".css": true, ".scss": true,
	".dart": true, ".ex": true, ".exs": true, ".erl": true, ".clj": true, ".lua": true, ".m": true, ".mm": true}

// envTemplate reports a committed template of an env file
// (`.env.example`, `.env.sample`): it documents the variables and holds
// no secret.
func envTemplate(base string) bool {
	switch strings.TrimPrefix(base, ".env.") {
	case "example", "sample", "template", "dist", "tmpl", "defaults":
		return strings.HasPrefix(base, ".env.")
	}
	return false
}

// tool decides an MCP or unknown tool: one whose name does not say it only
// reads, and whose arguments name a protected place (a path string, checked
// like a file write, or any string mentioning one), is denied; a tool that
// takes a shell command gets the shell's analysis.
func (a *analysis) tool() {
	c := a.c
	c.Actions = append(c.Actions, Action{Kind: "tool", Argv: []string{c.Tool}})
	c.Texts = append(c.Texts, c.Target)
	if c.Kind == hook.KindOther {
		c.opaque() // a tool the gate does not know: nothing allows it
	}
	fields, _ := hook.Fields(c.Payload.ToolInput)
	for _, f := range fields {
		// A git MCP server's switch that skips the hooks (no_verify,
		// skipHooks …) is --no-verify by another name.
		k := strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(f.Key))
		if k == "noverify" || k == "skiphooks" || k == "nohooks" || k == "bypasshooks" || k == "skipverify" {
			if v := strings.Trim(strings.ToLower(string(f.Raw)), `" `); v != "false" && v != "0" && v != "null" && v != "" {
				c.deny("the tool " + c.Tool + " is given " + f.Key + ", which skips the git hooks that anchor the record")
				return
			}
		}
	}
	if !hook.ToolWrites(c.Tool) {
		return
	}
	for _, f := range fields {
		// A tool that writes and names a branch (a GitHub server's
		// create_or_update_file, delete_file …) commits to that branch on
		// the remote: a push to it, for ask and never entries.
		var b string
		if k := strings.ToLower(f.Key); (k == "branch" || k == "ref") && json.Unmarshal(f.Raw, &b) == nil && b != "" {
			b = strings.TrimPrefix(b, "refs/heads/")
			c.Texts = append(c.Texts, "push to "+b, "commit to "+b)
		}
	}
	for _, f := range fields {
		var s string
		if hook.ShellKeys()[strings.ToLower(f.Key)] && json.Unmarshal(f.Raw, &s) == nil {
			a.shell(s, 0)
		}
	}
	for _, s := range hook.AllStrings(c.Payload.ToolInput) {
		if looksLikePath(s) {
			for _, cand := range []string{Resolve(s, a.cwd, a.place.Home), Lexical(s, a.cwd, a.place.Home)} {
				if why, hit := a.place.placeWhy(cand); hit {
					c.deny("the tool " + c.Tool + " writes and " + why)
					return
				}
			}
		}
		if m := mentions(s); m != "" {
			c.deny("the tool " + c.Tool + " writes and its arguments name " + m + "; the loops, the record, the git hooks and the hook settings are changed by a person")
			return
		}
	}
}

func looksLikePath(s string) bool {
	return s != "" && !strings.ContainsAny(s, "\n") && (strings.Contains(s, "/") || strings.Contains(s, `\`) || strings.HasPrefix(s, "."))
}

// markers are the protected places' names as they appear inside text the
// gate cannot parse (interpreter code, PowerShell, a script it runs): their
// mention there, together with code that could write, is a denial.
var markers = []string{
	".gitwarrant", ".docket/", ".git/hooks", ".git/config", ".git/gitwarrant", ".git/info",
	"refs/gitwarrant", "hookspath", ".claude/settings", ".mcp.json", "lefthook", ".husky",
	".pre-commit-config", ".gitconfig", "git/config", "include.path", "includeif", ".loop.md",
	"disableallhooks", ".claude.json", ".claude/commands", ".claude/agents", ".claude/skills", ".claude/hooks", `.git\hooks`, `.git\config`, `.claude\settings`,
}

// mentions returns the first marker in s (case ignored), or "".
func mentions(s string) string {
	low := strings.ToLower(s)
	for _, m := range markers {
		if strings.Contains(low, m) {
			return m
		}
	}
	return ""
}

// opaqueText handles a command the gate cannot parse: it is never allowed,
// and a mention of a protected place in it is a denial.
func (a *analysis) opaqueText(text, why string) {
	a.c.unreadable(why)
	a.c.Texts = append(a.c.Texts, text)
	if m := mentions(text); m != "" {
		a.c.deny("it names " + m + " in " + why + ", which the gate cannot read; the loops, the record, the git hooks and the hook settings are changed by a person")
	}
	if sub := humanOnlyIn(codeWords(text)); sub != "" {
		a.c.deny("`gitwarrant " + sub + "` is for people only")
	}
}

// readSmall reads a file of at most max bytes; larger or unreadable: "".
func readSmall(p string, max int64) (string, bool) {
	f, fi, ok := openRegular(p)
	if !ok {
		return "", false
	}
	defer f.Close()
	if fi.Size() > max {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return "", false
	}
	return string(b), true
}
