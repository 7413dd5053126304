package loops

import (
	"fmt"
	"path"
	"strings"
	"sync"
)

// Bash(…) entries (docs/typed-entries.md#commands): the command's canonical
// tokens compared one by one. A final ` *` (or the legacy `:*`) means any
// further arguments; `*` anywhere else is a literal character.

// Arg is one canonical argument of a simple command: its unquoted text,
// and whether it held an unquoted glob character (then Text is a pattern
// the shell expands, and only an entry spelling the same pattern matches).
type Arg struct {
	Text string
	Glob bool
	// Role is set in a Command's Spelt words only: 'w' a subcommand or
	// operand, 'o' an option, 'v' an option's value.
	Role byte
}

// EnvAssign is a prefix assignment, `NAME=VALUE cmd …`.
type EnvAssign struct {
	Name, Value string
}

// Command is one simple command as the matchers see it: plain values the
// gate derives from a parsed clause. Push is set for a `git push` clause
// whose destinations the gate resolved.
type Command struct {
	Argv    []Arg
	Assigns []EnvAssign
	Push    *Push
	// AtRoot says the command runs in the repository's root directory. A
	// command that runs a file by a relative path (RunsLocalFile) is
	// allowed only there: the entry names the committed file, not one of
	// the same name elsewhere.
	AtRoot bool
	// Alts are other spellings of Argv that ask and never entries match
	// too (git options under their short and long names); short option
	// clusters are split on both sides without being listed here.
	Alts [][]Arg
	// Spelt, when set, is the command read with its own option table
	// (git): every word with its role, options under each of their names.
	// Ask and never entries are then matched against it alone, role by
	// role, so a value never stands for a subcommand or an option
	// (`git checkout --conflict=merge` does not meet `git merge`).
	Spelt []Arg
	// Forms are other spellings of Argv an allow entry may name, each
	// matched as Argv is (`git checkout -bfeature` as `git checkout -b
	// feature`).
	Forms [][]Arg
}

// Push is a resolved `git push`: where it goes and how.
type Push struct {
	Remote                           string
	Current                          string      // the current branch ("" when detached or unknown)
	Updates                          []RefUpdate // destinations, with HEAD already resolved to Current where known
	All, Mirror, Tags, Force, Delete bool
	Options                          []string // other options given (-u/--set-upstream excluded), for exact comparison
}

// RefUpdate is one destination of a push.
type RefUpdate struct {
	Src, Dst      string
	Force, Delete bool
}

// harmlessEnv lists the prefix assignments a Bash entry need not spell
// (docs/typed-entries.md#prefix-assignments): they change output or locale,
// never which program runs or what it loads.
var harmlessEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"CI": true, "NO_COLOR": true, "FORCE_COLOR": true, "TZ": true, "LANG": true,
		"RUST_BACKTRACE": true, "NODE_ENV": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONUNBUFFERED": true,
	}
})

// HarmlessEnv reports whether a prefix assignment of name needs no entry.
func HarmlessEnv(name string) bool {
	return harmlessEnv()[name] || strings.HasPrefix(name, "LC_")
}

// interpreters run whatever they are given: `Bash(<interpreter> *)` is a
// catch-all (docs/typed-entries.md#catch-alls), and so is a wrapper that
// runs the command that follows it.
var interpreters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"python": true, "python3": true, "node": true, "deno": true, "bun": true,
		"perl": true, "ruby": true, "php": true, "pwsh": true, "powershell": true,
		"env": true, "sudo": true, "doas": true, "eval": true, "exec": true, "command": true,
		"xargs": true, "nohup": true, "timeout": true, "nice": true, "time": true, "watch": true,
	}
})

// restDanger lists arguments a trailing ` *` never covers, by command ("" for
// every command): they make an otherwise local command write a file it
// names, run a program it names, or skip the hooks that keep the record
// (docs/typed-entries.md#commands).
var restDanger = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"":      {"--output", "--no-verify"},
		"go":    {"-exec", "-toolexec", "-vettool", "-modfile", "-overlay"},
		"cargo": {"--manifest-path", "--config", "-Z"},
		"git":   {"--upload-pack", "--receive-pack", "--exec", "--ext-diff", "-O", "--open-files-in-pager"},
		"find":  {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"},
		"sort":  {"-o"},
		// -D and -P set properties such as org.gradle.java.home and
		// org.gradle.jvmargs (-javaagent:…): the JVM the build runs in
		"gradlew": {"--init-script", "-I", "--settings-file", "--build-file", "--project-dir", "-p", "--include-build", "-g", "--gradle-user-home",
			"-D", "--system-prop", "-P", "--project-prop"},
		"gradle": {"--init-script", "-I", "--settings-file", "--build-file", "--project-dir", "-p", "--include-build", "-g", "--gradle-user-home",
			"-D", "--system-prop", "-P", "--project-prop"},
		"mvn":  {"-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-l", "--log-file"},
		"mvnw": {"-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-l", "--log-file"},
		"sed":  {"-f", "--file"},
		"awk":  {"-f", "--file", "-i", "--include", "-E", "--exec", "-l", "--load"},
		"gawk": {"-f", "--file", "-i", "--include", "-E", "--exec", "-l", "--load"},
		"tree": {"-o"},
		"gh":   {"--repo", "-R", "--body-file", "-F", "--hostname"},
	}
})

func dangerousRest(head []Arg, a string) bool {
	cmd := head[0].Text
	if path.Base(cmd) == "go" && strings.Contains(a, "@") && (len(head) < 2 || head[1].Text != "get") {
		return true // pkg@version fetches and runs code from outside the repository (go get only records it)
	}
	if path.Base(cmd) == "git" && len(head) >= 2 && head[1].Text == "fetch" && fetchElsewhere(a) {
		return true
	}
	if n := path.Base(cmd); (n == "make" || n == "gmake") && makeElsewhere(a) {
		return true
	}
	for _, list := range [][]string{restDanger()[""], restDanger()[path.Base(cmd)]} {
		for _, d := range list {
			if a == d || strings.HasPrefix(a, d+"=") || d[0] == '-' && d[1] != '-' && strings.HasPrefix(a, d) {
				return true
			}
		}
	}
	return false
}

// makeElsewhere reports a make argument that runs recipes other than the
// committed Makefile's as written (docs/typed-entries.md#make): a variable
// given on the command line (`make test GO=/tmp/x`, which overrides the
// Makefile's own), another Makefile, directory or include path (`-f`, `-C`,
// `-I`, in a cluster such as `-kf` too, and any unambiguous abbreviation of
// their long names), `--eval`, and `-e` (the environment overrides the
// Makefile's variables).
func makeElsewhere(a string) bool {
	if !strings.HasPrefix(a, "-") {
		return strings.Contains(a, "=")
	}
	if long, ok := strings.CutPrefix(a, "--"); ok {
		name, _, _ := strings.Cut(long, "=")
		if len(name) < 2 {
			return false // `--` ends the options; `--e` is ambiguous, make refuses it
		}
		for _, d := range []string{"file", "makefile", "directory", "include-dir", "eval", "environment-overrides"} {
			if strings.HasPrefix(d, name) {
				return true
			}
		}
		return false
	}
	return strings.ContainsAny(a[1:], "fCIEe")
}

// fetchElsewhere reports a `git fetch` argument that fetches from a
// repository no one configured (a URL, `host:path`, a local path) or writes
// a local ref (a refspec `src:dst`, `--refmap=…`): objects from there,
// checked out by an allowed `git switch -c NEW START`, would replace any
// file of the work tree, the loops included. Fetching a configured remote
// (`git fetch origin main`) updates only its remote-tracking refs.
func fetchElsewhere(a string) bool {
	return strings.ContainsRune(a, ':') || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "./") ||
		strings.HasPrefix(a, "../") || strings.HasPrefix(a, "~") || a == "." || a == ".."
}

type cmdPattern struct {
	assigns []EnvAssign
	args    []Arg
	rest    bool
	push    *pushPattern // set when args begin `git push`
	local   bool         // it runs a file by a relative path (RunsLocalFile)
	// catchAllWhy is catchAll's answer, decided once when the entry is
	// parsed: every allow entry is asked on every call.
	catchAllWhy string
}

type pushPattern struct {
	remote                           string
	dsts                             []string
	options                          []string // required options other than the flags below
	all, mirror, tags, force, delete bool
}

func parseCmdPattern(arg string) (*cmdPattern, error) {
	s := strings.TrimSpace(arg)
	c := &cmdPattern{}
	if strings.HasSuffix(s, ":*") {
		c.rest, s = true, strings.TrimSpace(strings.TrimSuffix(s, ":*"))
	}
	toks, err := entryTokens(s)
	if err != nil {
		return nil, err
	}
	if !c.rest && len(toks) > 0 && toks[len(toks)-1] == (Arg{Text: "*", Glob: true}) {
		c.rest, toks = true, toks[:len(toks)-1]
	}
	for len(toks) > 0 && !toks[0].Glob && isAssignWord(toks[0].Text) {
		name, value, _ := strings.Cut(toks[0].Text, "=")
		c.assigns = append(c.assigns, EnvAssign{Name: name, Value: value})
		toks = toks[1:]
	}
	if len(toks) == 0 && !c.rest {
		return nil, fmt.Errorf("no command: write Bash(<command> <arguments>), with a final ` *` for any further arguments")
	}
	c.args = toks
	c.local = RunsLocalFile(toks)
	if len(toks) >= 2 && toks[0].Text == "git" && toks[1].Text == "push" {
		c.push = parsePushPattern(toks[2:])
	}
	c.catchAllWhy = c.findCatchAll()
	return c, nil
}

func isAssignWord(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// entryTokens splits the command of a Bash entry as the shell would split
// a simple command with no expansions: quotes and backslashes removed.
// Operators, redirections, expansions and comments are refused — an entry
// names one command.
func entryTokens(s string) ([]Arg, error) {
	var out []Arg
	var cur strings.Builder
	in, glob := false, false
	flush := func() {
		if in {
			out = append(out, Arg{Text: cur.String(), Glob: glob})
		}
		cur.Reset()
		in, glob = false, false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t':
			flush()
		case ch == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			in, i = true, i+1+j
		case ch == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
					i++
				case s[i] == '$' || s[i] == '`':
					return nil, fmt.Errorf("an entry names one literal command: no $ or ` expansions")
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed double quote")
			}
			in = true
		case ch == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("a trailing backslash escapes nothing")
			}
			i++
			cur.WriteByte(s[i])
			in = true
		case strings.IndexByte("|&;<>()$`", ch) >= 0:
			return nil, fmt.Errorf("an entry names one simple command: no %q (write one entry per command; redirections and expansions are not part of an entry)", string(ch))
		case ch == '#' && !in:
			return nil, fmt.Errorf("no comments in an entry")
		default:
			if ch == '*' || ch == '?' || ch == '[' {
				glob = true
			}
			cur.WriteByte(ch)
			in = true
		}
	}
	flush()
	return out, nil
}

func parsePushPattern(args []Arg) *pushPattern {
	p := &pushPattern{}
	var pos []string
	for _, a := range args {
		switch t := a.Text; {
		case t == "-u" || t == "--set-upstream":
		case t == "-f" || t == "--force":
			p.force = true
		case t == "-d" || t == "--delete":
			p.delete = true
		case t == "--all":
			p.all = true
		case t == "--mirror":
			p.mirror = true
		case t == "--tags":
			p.tags = true
		case strings.HasPrefix(t, "-"):
			p.options = append(p.options, t)
		default:
			pos = append(pos, t)
		}
	}
	if len(pos) > 0 {
		p.remote = pos[0]
		for _, r := range pos[1:] {
			if strings.HasPrefix(r, "+") {
				p.force, r = true, r[1:]
			}
			if _, dst, ok := strings.Cut(r, ":"); ok {
				if dst == "" {
					continue
				}
				r = dst
			}
			p.dsts = append(p.dsts, shortRef(r))
		}
	}
	return p
}

func shortRef(r string) string {
	return strings.TrimPrefix(r, "refs/heads/")
}

// runners run the command that follows them: `Bash(pnpm dlx *)` is as much
// a catch-all as `Bash(sh *)`. The runners an entry may stop at
// (lookedThrough, typed_runner.go) are not catch-alls: they allow only what
// the loop allows the runner to run.
var runners = [][]string{
	{"pipx", "run"}, {"bunx"}, {"pnpm", "dlx"}, {"yarn", "dlx"},
}

func (c *cmdPattern) catchAll() string { return c.catchAllWhy }

func (c *cmdPattern) findCatchAll() string {
	if !c.rest {
		return ""
	}
	if len(c.args) == 0 {
		return "it names every command"
	}
	if c.runnerEntry() {
		return ""
	}
	head := 0
	if interpreters()[path.Base(c.args[0].Text)] {
		head = 1
	}
	if path.Base(c.args[0].Text) == "command" && len(c.args) > 1 && (c.args[1].Text == "-v" || c.args[1].Text == "-V") {
		return "" // command -v only looks a name up
	}
	for _, r := range runners {
		if len(c.args) >= len(r) && len(r) > head && prefixTexts(c.args, r) {
			head = len(r)
		}
	}
	if head == 0 {
		return ""
	}
	for _, a := range c.args[head:] {
		if !strings.HasPrefix(a.Text, "-") {
			return ""
		}
	}
	return fmt.Sprintf("%s runs whatever it is given", argTexts(c.args[:head]))
}

func prefixTexts(args []Arg, want []string) bool {
	for i, w := range want {
		if args[i].Text != w {
			return false
		}
	}
	return true
}

func argTexts(args []Arg) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a.Text
	}
	return strings.Join(out, " ")
}

// MatchCommand reports whether a Bash entry in an allow list allows cmd:
// every token equal, in order, with the entry's final ` *` taking any
// further arguments (but never one of restDanger), and every prefix
// assignment spelt by the entry unless it is harmless. A `git push` entry
// compares resolved destinations instead (docs/typed-entries.md#git-push).
func (t *Typed) MatchCommand(cmd Command) bool {
	c := t.cmd
	if t.Tool != ToolBash || c == nil || c.catchAll() != "" || !assignsEqual(c.assigns, cmd.Assigns) {
		return false
	}
	if c.push != nil {
		// `git push` exactly: a global option before push (-c, -C,
		// --git-dir …) could send another repository or to another URL.
		return cmd.Push != nil && len(cmd.Argv) >= 2 && cmd.Argv[0] == c.args[0] && cmd.Argv[1] == c.args[1] && c.push.allows(cmd.Push)
	}
	if c.local && !cmd.AtRoot {
		return false
	}
	if c.runnerEntry() && c.stopsAtRunner(cmd.Argv) {
		return false // only through what the runner runs (allowingThroughRunner)
	}
	if c.matchArgs(cmd.Argv) {
		return true
	}
	for _, f := range cmd.Forms {
		if c.matchArgs(f) || c.flagsAnywhere(f) {
			return true
		}
	}
	if c.flagsAnywhere(cmd.Argv) {
		return true
	}
	if len(c.args) == 0 || len(cmd.Argv) == 0 || c.args[0] != cmd.Argv[0] {
		return false // only an entry for the same command can match reordered
	}
	reordered := goalsFirst(cmd.Argv)
	return reordered != nil && c.matchArgs(reordered)
}

// valuedOptions lists, for the commands that read their options anywhere
// after the subcommand, the options that take the next word as their
// value; an entry's flags may then stand anywhere among the call's options
// (docs/typed-entries.md#commands).
var valuedOptions = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"gh": set("--title", "-t", "--body", "-b", "--base", "-B", "--head", "-H", "--assignee", "-a", "--label", "-l",
			"--milestone", "-m", "--project", "-p", "--reviewer", "-r", "--template", "-T", "--body-file", "-F",
			"--repo", "-R", "--json", "-q", "--jq", "--state", "-s", "--limit", "-L", "--author", "-A", "--search",
			"-S", "--workflow", "-w", "--branch", "--hostname", "--job", "-j", "--attempt", "--comments", "-c",
			"--add-label", "--remove-label", "--add-reviewer", "--remove-reviewer", "--add-assignee",
			"--remove-assignee", "--add-project", "--remove-project", "--recover", "--template-file", "-e", "--editor"),
	}
})

// flagsAnywhere matches an entry whose words after its positional ones
// are all flags (`gh pr create --draft *`) against a call that gives those
// flags among its options in another order (`gh pr create --fill
// --draft`): the positional words equal, each flag present where it is
// not an option's value, and every other word one the final ` *` takes.
// Only commands whose option table says which options take a value.
func (c *cmdPattern) flagsAnywhere(argv []Arg) bool {
	if !c.rest || len(c.args) == 0 || len(argv) <= len(c.args) {
		return false
	}
	valued := valuedOptions()[path.Base(c.args[0].Text)]
	if valued == nil || argv[0] != c.args[0] {
		return false
	}
	k := 0
	for k < len(c.args) && !strings.HasPrefix(c.args[k].Text, "-") {
		k++
	}
	if k == len(c.args) {
		return false
	}
	for i, a := range c.args {
		if i < k && argv[i] != a {
			return false
		}
		if i >= k && (!strings.HasPrefix(a.Text, "-") || valued[a.Text] || a.Glob) {
			return false
		}
	}
	used := make([]bool, len(argv))
	isValue := make([]bool, len(argv))
	for i := k; i < len(argv); i++ {
		t := argv[i].Text
		if t == "--" {
			for j := i + 1; j < len(argv); j++ {
				isValue[j] = true // operands: never a flag
			}
			break
		}
		if valued[t] && i+1 < len(argv) {
			isValue[i+1] = true
			i++
		}
	}
	for _, a := range c.args[k:] {
		found := false
		for i := k; i < len(argv); i++ {
			if !used[i] && !isValue[i] && argv[i] == a {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	for i := k; i < len(argv); i++ {
		if !used[i] && dangerousRest(c.args, argv[i].Text) {
			return false
		}
	}
	return true
}

// matchArgs compares the entry's tokens with argv, one by one, the rest
// taking any argument but the dangerous ones.
func (c *cmdPattern) matchArgs(argv []Arg) bool {
	if len(argv) < len(c.args) || !c.rest && len(argv) != len(c.args) {
		return false
	}
	for i, a := range c.args {
		if argv[i] != a {
			return false
		}
	}
	tool := buildToolOf(argv)
	for i := len(c.args); i < len(argv); i++ {
		if dangerousRest(c.args, argv[i].Text) || tool != nil && tool.isGoal(argv, i) {
			return false
		}
	}
	return true
}

// assignsEqual: the call's assignments that are not harmless must be
// exactly the entry's (ignoring the harmless ones it spells).
func assignsEqual(entry, call []EnvAssign) bool {
	want := map[EnvAssign]bool{}
	for _, a := range entry {
		if !HarmlessEnv(a.Name) {
			want[a] = true
		}
	}
	n := 0
	for _, a := range call {
		if HarmlessEnv(a.Name) {
			continue
		}
		if !want[a] {
			return false
		}
		n++
	}
	return n == len(want)
}

// EscalatesCommand reports whether a Bash entry in ask or never matches
// cmd: the entry's tokens appear in the call in order (other arguments may
// stand between them), the command compared by base name, and a `git push`
// entry matches any push to a destination it names, with any remote.
func (t *Typed) EscalatesCommand(cmd Command) bool {
	c := t.cmd
	if t.Tool != ToolBash || c == nil {
		return false
	}
	if len(c.args) == 0 {
		return true
	}
	if len(cmd.Argv) == 0 || path.Base(cmd.Argv[0].Text) != path.Base(c.args[0].Text) {
		return false
	}
	for _, a := range c.assigns {
		if !containsAssign(cmd.Assigns, a) {
			return false
		}
	}
	if c.push != nil && cmd.Push != nil {
		return c.push.escalates(cmd.Push)
	}
	// Clustered short options are split on both sides before matching:
	// `git commit -qam wip` is `-q -a -m wip` and meets `Bash(git commit
	// -am)`. Splitting a cluster whose letters take values only adds
	// tokens, so it can only make an entry match more often.
	if cmd.Spelt != nil && !(len(c.args) > 1 && strings.HasPrefix(c.args[1].Text, "-")) {
		// (an entry spelling git's own options before the subcommand is
		// matched word by word, below)
		for _, pat := range [][]Arg{c.args, splitClusters(c.args)} {
			if inRoles(pat, cmd.Spelt) {
				return true
			}
		}
		return false
	}
	calls := append([][]Arg{cmd.Argv, splitClusters(cmd.Argv)}, cmd.Alts...)
	for _, pat := range [][]Arg{c.args, splitClusters(c.args)} {
		for _, call := range calls {
			if inOrder(pat, call) {
				return true
			}
		}
	}
	return false
}

// inOrder reports whether the entry's tokens after the command appear in
// the call's arguments in order, other arguments allowed between them.
func inOrder(pat, call []Arg) bool {
	j := 1
	for _, a := range call[min(1, len(call)):] {
		if j < len(pat) && a.Text == pat[j].Text {
			j++
		}
	}
	return j == len(pat)
}

// inRoles is inOrder against a command read with its option table: an
// entry's option meets an option, a word after an option in the entry
// meets a value or an operand, and any other word meets a subcommand or
// an operand only.
func inRoles(pat, spelt []Arg) bool {
	j := 1
	for _, a := range spelt {
		if j >= len(pat) {
			break
		}
		p := pat[j].Text
		want := byte('w')
		switch {
		case strings.HasPrefix(p, "-") && len(p) > 1:
			want = 'o'
		case strings.HasPrefix(pat[j-1].Text, "-") && j > 1:
			want = 'v'
		}
		if a.Text == p && (a.Role == want || want == 'v' && a.Role == 'w') {
			j++
		}
	}
	return j == len(pat)
}

// splitClusters splits every short option cluster after the command
// (`-qam` into `-q -a -m`, up to the first character that is not a letter
// or digit, which starts a last token).
func splitClusters(args []Arg) []Arg {
	out := make([]Arg, 0, len(args)+4)
	for i, a := range args {
		t := a.Text
		if i == 0 || len(t) < 3 || t[0] != '-' || t[1] == '-' || !alnum(t[1]) {
			out = append(out, a)
			continue
		}
		j := 1
		for ; j < len(t) && alnum(t[j]); j++ {
			out = append(out, Arg{Text: "-" + t[j:j+1]})
		}
		if j < len(t) {
			out = append(out, Arg{Text: t[j:], Glob: a.Glob})
		}
	}
	return out
}

func alnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func containsAssign(list []EnvAssign, a EnvAssign) bool {
	for _, x := range list {
		if x == a {
			return true
		}
	}
	return false
}

// allows: the call pushes only to destinations the entry names, on the
// entry's remote, with no flag or option the entry does not spell.
func (p *pushPattern) allows(c *Push) bool {
	if c.Remote != p.remote || c.All && !p.all || c.Mirror && !p.mirror || c.Tags && !p.tags ||
		c.Force && !p.force || c.Delete && !p.delete || len(c.Updates) == 0 && !c.All && !c.Mirror && !c.Tags {
		return false
	}
	for _, o := range c.Options {
		if !contains(p.options, o) {
			return false
		}
	}
	for _, u := range c.Updates {
		if u.Force && !p.force || u.Delete && !p.delete || !p.names(shortRef(u.Dst), c.Current) {
			return false
		}
	}
	return true
}

// names reports whether dst is one of the entry's destinations. `HEAD` in
// an entry is the current branch; with no destination the entry names the
// current branch only.
func (p *pushPattern) names(dst, current string) bool {
	if len(p.dsts) == 0 {
		return current != "" && dst == current
	}
	for _, d := range p.dsts {
		if d == "HEAD" {
			if current != "" && dst == current {
				return true
			}
			continue
		}
		if ok, _ := path.Match(d, dst); ok {
			return true
		}
	}
	return false
}

// escalates: cautious — any remote; a flag the entry spells must be present
// (a mirror counts as force and delete); a destination the entry names must
// be among the call's (all and mirror push every branch).
func (p *pushPattern) escalates(c *Push) bool {
	force, del := c.Force || c.Mirror, c.Delete || c.Mirror
	for _, u := range c.Updates {
		force = force || u.Force
		del = del || u.Delete
	}
	if p.force && !force || p.delete && !del || p.all && !c.All && !c.Mirror || p.mirror && !c.Mirror || p.tags && !c.Tags {
		return false
	}
	for _, o := range p.options {
		if !contains(c.Options, o) {
			return false
		}
	}
	if len(p.dsts) == 0 || c.All || c.Mirror {
		return true
	}
	for _, u := range c.Updates {
		if p.names(shortRef(u.Dst), c.Current) {
			return true
		}
	}
	return false
}

// scriptRunners run the file named by their first operand; shellRunners
// are the shells among them.
var (
	shellRunners = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "source": true, ".": true}
	})
	scriptRunners = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "source": true, ".": true,
			"python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true}
	})
)

// RunsLocalFile reports whether a command runs a file named by a relative
// path: the command itself (`./gradlew`, `scripts/test.sh`) or the script
// operand of a shell or interpreter (`bash scripts/setup.sh`, `python
// main.py`). Such a path names a different file in each directory, so an
// entry for it holds only at the repository root
// (docs/typed-entries.md#project-scripts).
func RunsLocalFile(argv []Arg) bool {
	if len(argv) == 0 {
		return false
	}
	relative := func(p string) bool { return p != "" && p[0] != '/' && p[0] != '~' }
	if strings.ContainsRune(argv[0].Text, '/') {
		return relative(argv[0].Text)
	}
	if !scriptRunners()[argv[0].Text] {
		return false
	}
	shell := shellRunners()[argv[0].Text]
	for _, a := range argv[1:] {
		t := a.Text
		switch {
		case !strings.HasPrefix(t, "-"):
			return relative(t)
		case shell && !strings.HasPrefix(t, "--") && strings.ContainsRune(t, 'c'),
			!shell && (t == "-c" || t == "-m" || t == "-e" || t == "-E" || t == "-p" || t == "-r" || t == "--eval" || t == "--print"):
			return false // a -c string, a module or a one-liner: no file
		}
	}
	return false
}
