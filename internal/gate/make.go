package gate

import (
	"io"
	"os"

	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gitwarrant/gitwarrant/internal/shell"
)

// makefile is what the gate reads of a Makefile: its rules' recipes, the
// variables it sets to plain words, and the shell it runs at parse time.
type makefile struct {
	rules    map[string][]makeRule
	order    []string // explicit targets, in order (the default goal is the first)
	patterns []makeRule
	vars     map[string]string
	parsed   []string // `$(shell …)` bodies and `!=` commands: run whatever the targets
	files    []string // the Makefile and every file it includes, as read
	oneShell bool
	why      string // why part of it cannot be read, "" when all of it can
}

type makeRule struct {
	prereqs []string
	recipe  []string
}

var makeRuleRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([^:=#\t][^:=#]*?)\s*::?\s*([^=].*)?$`)
})

var makeAssignRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:export|override|private)\s+)*([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?=|:::=|::=|:=|\+=|!=|=)\s*(.*)$`)
})

// makeRun reads what `make` runs (docs/typed-entries.md#make): the recipes
// of the targets it is given and of their prerequisites, the pattern rules
// that may build them, and whatever the Makefile runs while it is read
// (`$(shell …)`, `VAR != …`). Each is screened like a script the call runs
// (self-protection, ask and never entries); what make expands at run time
// cannot be read, so the Makefile is set apart as a script is, for a loop
// that vouches for it (vouched, warrant.go): committed as it stands in
// HEAD, and not editable by the agent.
func (a *analysis) makeRun(cl *shell.Clause, argv []string, st *shellState, depth int) {
	dir := a.cwd
	if cl.Dir != "" {
		dir = Resolve(cl.Dir, a.cwd, a.place.Home)
	}
	file, targets, over, why := makeArgs(cl, argv)
	if why != "" {
		a.c.unreadable(why)
		return
	}
	if strings.HasPrefix(file, "\x00C") {
		dir, file = Resolve(file[2:], dir, a.place.Home), ""
	}
	if file == "" {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if _, ok := readSmall(filepath.Join(dir, n), 1<<20); ok {
				file = n
				break
			}
		}
		if file == "" {
			return // make stops: no makefile, no target
		}
	}
	mf := readMakefile(Resolve(file, dir, a.place.Home), dir, a.place.Home)
	if mf.why != "" {
		a.c.unreadable(mf.why)
		return
	}
	for n := range st.assigned {
		if strings.HasPrefix(n, "MAKE") || strings.HasSuffix(n, "MAKEFLAGS") || n == "MFLAGS" || n == "SHELL" || mf.mentions(n) {
			a.c.unreadable("the call sets " + n + ", which changes what make runs")
			return
		}
	}
	if len(targets) == 0 {
		if len(mf.order) == 0 {
			return
		}
		targets = mf.order[:1]
	}
	var lines [][]string
	seen := map[string]bool{}
	var walk func(t string) bool
	walk = func(t string) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		rs, ok := mf.rules[t]
		for _, r := range rs {
			lines = append(lines, r.recipe)
			for _, p := range r.prereqs {
				walk(p)
			}
		}
		return ok
	}
	for _, t := range targets {
		if !walk(t) && len(mf.patterns) == 0 {
			a.c.unreadable("make has no rule for " + t + " in " + file + ", so it would build it by a rule of its own")
			return
		}
	}
	for _, r := range mf.patterns {
		lines = append(lines, r.recipe)
	}
	if inner := a.c.inScript; inner > 0 {
		// A script or recipe runs make: its Makefile is vouched for on
		// its own, as the call's scripts are.
		a.c.inScript = 0
		defer func() { a.c.inScript = inner }()
	}
	var cmds []string
	for _, body := range mf.parsed {
		cmds = append(cmds, mf.expand(body, "", over))
	}
	for i, rec := range lines {
		var one []string
		for _, l := range rec {
			one = append(one, mf.expand(recipeLine(l), targets[min(i, len(targets)-1)], over))
		}
		if mf.oneShell {
			cmds = append(cmds, strings.Join(one, "\n"))
		} else {
			cmds = append(cmds, one...)
		}
	}
	if mf.unsafeShell() {
		a.c.inScript++
		a.c.unreadable("the Makefile runs its recipes with SHELL = " + mf.vars["SHELL"])
		a.c.inScript--
	}
	a.makeRecipes(mf, cmds, dir, depth)
}

// makeRecipes screens each command line as a script the call runs, kept
// apart per Makefile for vouched: make runs every line in a shell of its
// own, so a `cd` in one does not carry to the next.
func (a *analysis) makeRecipes(mf *makefile, cmds []string, dir string, depth int) {
	was := a.c.scriptOpaque
	a.c.scriptOpaque = false
	a.c.inScript++
	var scripts []*shell.Script
	for _, cmd := range cmds {
		sub := &analysis{c: a.c, place: a.place, env: a.env, cwd: dir}
		scripts = append(scripts, sub.shell(cmd, depth+1))
	}
	// Make expands its own variables and functions when it runs a recipe:
	// the gate cannot read every one, so the Makefile is always one the
	// loop must vouch for.
	a.c.opaque()
	a.c.inScript--
	opaque := a.c.scriptOpaque
	a.c.scriptOpaque = was || opaque
	for i, f := range mf.files {
		rs := ranScript{path: f, dir: dir, abs: f, opaque: opaque, committed: true}
		if i == 0 {
			for _, s := range scripts {
				rs.script = s
				a.c.scripts = append(a.c.scripts, rs)
			}
			if len(scripts) > 0 {
				continue
			}
		}
		a.c.scripts = append(a.c.scripts, rs)
	}
}

// makeArgs reads make's command line: the Makefile (-f) or directory (-C,
// returned as "\x00C"+dir), the targets, and the variables it sets. why is
// set when the line cannot be read.
func makeArgs(cl *shell.Clause, argv []string) (file string, targets []string, over map[string]string, why string) {
	over = map[string]string{}
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if !cl.Argv[i].Literal {
			return "", nil, nil, "make is given a word built at run time"
		}
		val := func(short, long string) (string, bool) {
			switch {
			case w == short || w == long:
				if i+1 < len(argv) {
					i++
					return argv[i], true
				}
			case strings.HasPrefix(w, long+"="):
				return w[len(long)+1:], true
			case len(w) > 2 && strings.HasPrefix(w, short):
				return w[2:], true
			}
			return "", false
		}
		if v, ok := val("-f", "--file"); ok {
			file = v
			continue
		}
		if v, ok := val("-C", "--directory"); ok {
			file = "\x00C" + v
			continue
		}
		switch {
		case w == "--":
			for _, t := range argv[i+1:] {
				if k, v, ok := strings.Cut(t, "="); ok {
					over[k] = v
				} else {
					targets = append(targets, t)
				}
			}
			return file, targets, over, ""
		case w == "-o" || w == "-W" || w == "--old-file" || w == "--what-if" || w == "--assume-old" || w == "--assume-new" || w == "--new-file":
			i++
		case w == "-e" || w == "--environment-overrides" || strings.HasPrefix(w, "-I") || strings.HasPrefix(w, "--include-dir"):
			return "", nil, nil, "make " + w + " reads recipes or variables from elsewhere"
		case strings.HasPrefix(w, "-"):
		case strings.Contains(w, "="):
			k, v, _ := strings.Cut(w, "=")
			over[strings.TrimRight(k, ":+?!")] = v
		default:
			targets = append(targets, w)
		}
	}
	return file, targets, over, ""
}

// readMakefile parses a Makefile and the files it includes by name.
func readMakefile(p, dir, home string) *makefile {
	mf := &makefile{rules: map[string][]makeRule{}, vars: map[string]string{}}
	mf.read(p, dir, home, 0)
	return mf
}

func (mf *makefile) read(p, dir, home string, depth int) {
	content, ok := readSmall(p, 1<<20)
	if !ok {
		mf.why = "make reads " + p + ", which the gate cannot read"
		return
	}
	mf.files = append(mf.files, p)
	var cur []string // the targets whose recipe is being read
	inDefine := false
	for _, line := range makeLines(content) {
		if inDefine {
			inDefine = strings.TrimSpace(line) != "endef"
			continue
		}
		if strings.HasPrefix(line, "\t") {
			if cur != nil {
				mf.addRecipe(cur, line[1:])
				mf.parsed = append(mf.parsed, shellCalls(line)...)
			}
			continue
		}
		t := strings.TrimSpace(stripMakeComment(line))
		mf.parsed = append(mf.parsed, shellCalls(t)...)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "define ") || t == "define":
			inDefine, cur = true, nil
			continue
		case strings.HasPrefix(t, "ifeq") || strings.HasPrefix(t, "ifneq") || strings.HasPrefix(t, "ifdef") ||
			strings.HasPrefix(t, "ifndef") || t == "else" || strings.HasPrefix(t, "else ") || t == "endif":
			continue // both branches are read
		case strings.HasPrefix(t, "include ") || strings.HasPrefix(t, "-include ") || strings.HasPrefix(t, "sinclude "):
			cur = nil
			_, names, _ := strings.Cut(t, " ")
			for _, n := range strings.Fields(names) {
				if strings.Contains(n, "$") || strings.ContainsAny(n, "*?[") {
					mf.why = "the Makefile includes " + n + ", a name built when make runs"
					return
				}
				inc := Resolve(n, dir, home)
				if _, ok := readSmall(inc, 1<<20); !ok && (t[0] == '-' || t[0] == 's') {
					continue // an optional include that is not there
				}
				if depth >= 3 {
					mf.why = "the Makefile includes files too deeply"
					return
				}
				mf.read(inc, dir, home, depth+1)
				if mf.why != "" {
					return
				}
			}
			continue
		}
		if m := makeAssignRE().FindStringSubmatch(t); m != nil {
			cur = nil
			mf.assign(m[1], m[2], m[3])
			continue
		}
		if m := makeRuleRE().FindStringSubmatch(t); m != nil {
			cur = mf.addRule(m[1], m[2])
			continue
		}
		cur = nil // a directive the gate does not read (vpath, export, …)
	}
}

func (mf *makefile) assign(name, op, value string) {
	switch op {
	case "!=":
		mf.parsed = append(mf.parsed, value)
		mf.vars[name] = "${MAKE_VARIABLE}"
	case "+=":
		if v, ok := mf.vars[name]; ok {
			mf.vars[name] = v + " " + value
		} else {
			mf.vars[name] = value
		}
	case "?=":
		// The environment may hold another value, so the variable is
		// read only when the Makefile also sets it outright.
		if _, ok := mf.vars[name]; !ok {
			mf.vars[name] = "${MAKE_VARIABLE}"
		}
	default:
		mf.vars[name] = value
	}
	if name == ".ONESHELL" {
		mf.oneShell = true
	}
}

// addRule records a rule line and returns the targets its recipe lines
// belong to (nil for a target-specific variable).
func (mf *makefile) addRule(targets, rest string) []string {
	prereqs, recipe, hasRecipe := strings.Cut(rest, ";")
	if makeAssignRE().MatchString(strings.TrimSpace(prereqs)) {
		return nil // `target: VAR = value`
	}
	if strings.HasPrefix(strings.TrimSpace(prereqs), "%") || strings.Contains(prereqs, ":") {
		// A static pattern rule (`objs: %.o: %.c`): its recipe is the
		// targets' own.
		if _, p, ok := strings.Cut(prereqs, ":"); ok {
			prereqs = p
		}
	}
	ts := strings.Fields(targets)
	for _, t := range ts {
		if t == ".ONESHELL" {
			mf.oneShell = true
		}
	}
	r := makeRule{prereqs: strings.Fields(prereqs)}
	if hasRecipe && strings.TrimSpace(recipe) != "" {
		r.recipe = append(r.recipe, recipe)
	}
	for _, t := range ts {
		switch {
		case strings.Contains(t, "%") || t == ".DEFAULT" || strings.HasPrefix(t, ".") && strings.Count(t, ".") == 2 && !strings.ContainsRune(t, '/'):
			mf.patterns = append(mf.patterns, r)
		case strings.HasPrefix(t, "."):
		default:
			if _, ok := mf.rules[t]; !ok {
				mf.order = append(mf.order, t)
			}
			mf.rules[t] = append(mf.rules[t], r)
		}
	}
	return ts
}

func (mf *makefile) addRecipe(targets []string, line string) {
	for _, t := range targets {
		if strings.Contains(t, "%") || strings.HasPrefix(t, ".") {
			if n := len(mf.patterns); n > 0 {
				mf.patterns[n-1].recipe = append(mf.patterns[n-1].recipe, line)
			}
			continue
		}
		rs := mf.rules[t]
		if len(rs) == 0 {
			continue
		}
		rs[len(rs)-1].recipe = append(rs[len(rs)-1].recipe, line)
	}
}

// mentions reports a variable the Makefile reads ($(NAME) or ${NAME}).
func (mf *makefile) mentions(name string) bool {
	for _, f := range mf.files {
		content, _ := readSmall(f, 1<<20)
		if strings.Contains(content, "$("+name+")") || strings.Contains(content, "${"+name+"}") {
			return true
		}
	}
	return false
}

func (mf *makefile) unsafeShell() bool {
	sh, ok := mf.vars["SHELL"]
	if !ok {
		return false
	}
	return !shells()[path.Base(strings.TrimSpace(sh))]
}

// expand spells a recipe line as the shell will see it: `$$` is `$`,
// `$(MAKE)` is make, `$@` the target, a variable set to plain words its
// value (a command-line variable wins), and anything else make expands —
// a function, an automatic variable, a variable read from the
// environment — a parameter the gate cannot read.
func (mf *makefile) expand(line, target string, over map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '$' || i+1 >= len(line) {
			b.WriteByte(c)
			continue
		}
		n := line[i+1]
		switch n {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			end := matchParen(line, i+1)
			if end < 0 {
				b.WriteString("${MAKE_EXPANSION}")
				return b.String()
			}
			b.WriteString(mf.variable(line[i+2:end], over, 0))
			i = end
			continue
		case '@':
			if target != "" {
				b.WriteString(target)
				i++
				continue
			}
		}
		b.WriteString("${MAKE_AUTOMATIC}")
		i++
	}
	return b.String()
}

func (mf *makefile) variable(name string, over map[string]string, depth int) string {
	if name == "MAKE" {
		return "make"
	}
	if strings.ContainsAny(name, " \t$,:") || depth > 8 {
		return "${MAKE_EXPANSION}"
	}
	v, ok := over[name]
	if !ok {
		v, ok = mf.vars[name]
	}
	if !ok {
		return "${MAKE_VARIABLE}"
	}
	if strings.Contains(v, "$") {
		if inner := strings.TrimSpace(v); strings.HasPrefix(inner, "$(") && matchParen(inner, 1) == len(inner)-1 {
			return mf.variable(inner[2:len(inner)-1], over, depth+1)
		}
		return "${MAKE_EXPANSION}"
	}
	return v
}

// matchParen returns the index of the bracket closing the one at open.
func matchParen(s string, open int) int {
	want := byte(')')
	if s[open] == '{' {
		want = '}'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case s[open]:
			depth++
		case want:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// shellCalls returns the commands of every `$(shell …)` in a line.
func shellCalls(line string) []string {
	var out []string
	for i := 0; i+8 < len(line); i++ {
		if line[i] != '$' || (line[i+1] != '(' && line[i+1] != '{') || !strings.HasPrefix(line[i+2:], "shell ") {
			continue
		}
		end := matchParen(line, i+1)
		if end < 0 {
			out = append(out, line[i+8:])
			break
		}
		out = append(out, line[i+8:end])
	}
	return out
}

// recipeLine drops a recipe line's make prefixes (@ silent, - ignore
// errors, + always run).
func recipeLine(l string) string {
	return strings.TrimLeft(strings.TrimSpace(l), "@-+ \t")
}

func stripMakeComment(l string) string {
	if i := strings.IndexByte(l, '#'); i >= 0 && (i == 0 || l[i-1] != '\\') {
		return l[:i]
	}
	return l
}

// makeLines joins a Makefile's continued lines.
func makeLines(content string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\"))
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(l)
		out = append(out, cur.String())
		cur.Reset()
	}
	return out
}

// asCommitted reports whether the file at abs is in HEAD's tree, byte for
// byte as it stands in the work tree: a Makefile someone changed since
// the last commit is not the reviewed one (docs/typed-entries.md#make).
func asCommitted(root, abs string) bool {
	rel, err := filepath.Rel(root, abs)
	if root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	repo, err := gitx.Discover(root)
	if err != nil {
		return false
	}
	head, err := repo.ResolveCommit("HEAD")
	if err != nil {
		return false
	}
	dir, name := path.Split(filepath.ToSlash(rel))
	entries, err := repo.DirAt(head, dir)
	if err != nil {
		return false
	}
	if fi, err := os.Lstat(abs); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, _, ok := openRegular(abs)
	if !ok {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	return err == nil && entries[name] == gitx.BlobID(data).String()
}
