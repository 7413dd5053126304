package shell

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

type wrapperFunc func(w *walker, idx int, args []Word, texts []string)

// wrappers maps a command name to how the command it runs is found. See
// docs/shell.md#wrappers. It is built on first use, not at start-up
// (docs/threat-model.md#cost).
func wrappers() map[string]wrapperFunc { return wrappersLazy.get(buildWrappers) }

var wrappersLazy lazyTable[wrapperFunc]

// lazyTable is a command table built on first use. A sync.Once, not a
// package-level sync.OnceValue: the tables' functions reach their own
// table again, which a package-level initialiser may not (an
// initialisation cycle).
type lazyTable[V any] struct {
	once sync.Once
	m    map[string]V
}

func (l *lazyTable[V]) get(build func() map[string]V) map[string]V {
	l.once.Do(func() { l.m = build() })
	return l.m
}

func buildWrappers() map[string]wrapperFunc {
	m := map[string]wrapperFunc{
		"env":      (*walker).env,
		"command":  (*walker).command,
		"builtin":  simple("builtin", optSpec{}),
		"exec":     simple("exec", optSpec{argShort: "a", flags: "cl"}),
		"nohup":    simple("nohup", optSpec{}),
		"setsid":   simple("setsid", optSpec{flags: "cfw", flagLong: []string{"ctty", "fork", "wait"}}),
		"unbuffer": simple("unbuffer", optSpec{flags: "p"}),
		"time":     simple("time", optSpec{argShort: "fo", flags: "apqv", argLong: []string{"format", "output"}, flagLong: []string{"append", "portability", "quiet", "verbose"}}),
		"nice":     simple("nice", optSpec{argShort: "n", flags: "0123456789", argLong: []string{"adjustment"}}),
		"stdbuf":   simple("stdbuf", optSpec{argShort: "ioe", argLong: []string{"input", "output", "error"}}),
		"timeout": positional("timeout", 1, optSpec{argShort: "sk", flags: "v", argLong: []string{"signal", "kill-after"},
			flagLong: []string{"preserve-status", "foreground", "verbose"}}),
		"ionice":           (*walker).ionice,
		"chrt":             (*walker).chrt,
		"taskset":          (*walker).taskset,
		"chroot":           positional("chroot", 1, optSpec{argLong: []string{"userspec", "groups"}, flagLong: []string{"skip-chdir"}}),
		"sudo":             (*walker).sudo,
		"doas":             (*walker).doas,
		"xargs":            (*walker).xargs,
		"parallel":         (*walker).parallel,
		"find":             (*walker).find,
		"watch":            (*walker).watch,
		"flock":            (*walker).flock,
		"eval":             (*walker).eval,
		"su":               stringOpt("su", "c", "command", optSpec{argShort: "cgGsw", flags: "flmp", argLong: []string{"command", "group", "supp-group", "shell", "whitelist-environment", "session-command"}, flagLong: []string{"login", "preserve-environment", "pty", "fast"}}),
		"runuser":          (*walker).runuser,
		"script":           stringOpt("script", "c", "command", optSpec{argShort: "cEIOTBm", flags: "aefqt", argLong: []string{"command", "echo", "log-in", "log-out", "log-timing", "log-io", "logging-format", "output-limit"}, flagLong: []string{"append", "return", "flush", "force", "quiet"}}),
		"sg":               (*walker).sg,
		"nix-shell":        stringOpt("nix-shell", "", "run", optSpec{argShort: "pAIE", argLong: []string{"run", "command", "attr", "packages", "include", "expr", "arg", "argstr"}, flagLong: []string{"pure", "impure"}}),
		"busybox":          (*walker).busybox,
		"strace":           simple("strace", optSpec{argShort: "abeEIoOpPsSuUX", flags: "cCdDfFhiqrtTvVwxyzZk", argLong: []string{"output", "expr", "trace", "signal", "status", "env", "user", "attach", "string-limit"}}),
		"ltrace":           simple("ltrace", optSpec{argShort: "aAeEFlnopsuwx", flags: "bcCDfhiLrStTV"}),
		"caffeinate":       simple("caffeinate", optSpec{argShort: "tw", flags: "dimsu"}),
		"dbus-run-session": simple("dbus-run-session", optSpec{argLong: []string{"config-file", "dbus-daemon"}}),
		"xvfb-run":         simple("xvfb-run", optSpec{argShort: "efnpsw", flags: "al", argLong: []string{"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}, flagLong: []string{"auto-servernum", "listen-tcp"}}),
		"npx":              (*walker).npx,
	}
	more := map[string]wrapperFunc{
		"gtimeout":     m["timeout"],
		"nsenter":      simple("nsenter", optSpec{argShort: "tSGwWZ", flags: "aimnpuUCrFe", argLong: []string{"target", "setuid", "setgid", "wd", "root"}}),
		"unshare":      simple("unshare", optSpec{argShort: "", flags: "imnpuUCTrfc", argLong: []string{"setgroups", "propagation", "map-user", "map-group", "wd", "root"}}),
		"firejail":     simple("firejail", optSpec{}),
		"proxychains":  simple("proxychains", optSpec{argShort: "f", flags: "q"}),
		"proxychains4": simple("proxychains4", optSpec{argShort: "f", flags: "q"}),
		"torsocks":     simple("torsocks", optSpec{argShort: "uPpa", flags: "diq"}),
		"catchsegv":    simple("catchsegv", optSpec{}),
		"valgrind":     simple("valgrind", optSpec{}),
		"faketime":     positional("faketime", 1, optSpec{argShort: "mf", flags: "p"}),
		"cpulimit":     simple("cpulimit", optSpec{argShort: "lpe", flags: "ibkvz", argLong: []string{"limit", "pid", "exe"}}),
		"numactl":      simple("numactl", optSpec{argShort: "CNmPpi", flags: "alsH", argLong: []string{"physcpubind", "cpunodebind", "membind", "preferred", "interleave", "localalloc"}}),
		"pkexec":       simple("pkexec", optSpec{argLong: []string{"user"}, flagLong: []string{"disable-internal-agent", "keep-cwd"}}),
		"run0":         simple("run0", optSpec{argShort: "uDg", argLong: []string{"user", "group", "chdir", "unit", "property", "description", "slice", "setenv", "nice"}}),
		"setpriv":      simple("setpriv", optSpec{argLong: []string{"reuid", "regid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule"}}),
		"prlimit":      simple("prlimit", optSpec{argShort: "p", flags: "o"}),
		"perf":         (*walker).perf,
		"hyperfine":    shellOperands("hyperfine", optSpec{argShort: "wmMrsp", argLong: []string{"warmup", "min-runs", "max-runs", "runs", "setup", "prepare", "conclude", "cleanup", "parameter-scan", "parameter-step-size", "parameter-list", "shell", "export-json", "export-csv", "export-markdown", "command-name", "output", "style", "time-unit", "sort"}}),
		"entr":         simple("entr", optSpec{flags: "acdnprsz"}),
		"watchexec":    shellOperands("watchexec", optSpec{argShort: "wedsfpi", argLong: []string{"watch", "exts", "filter", "ignore", "debounce", "signal", "shell", "on-busy-update", "delay-run", "project-origin", "workdir", "env"}}),
		"nodemon":      stringOpt("nodemon", "x", "exec", optSpec{argShort: "xwei", argLong: []string{"exec", "watch", "ext", "ignore", "delay", "signal", "config"}}),
		"systemd-run":  simple("systemd-run", optSpec{argShort: "pEMH", argLong: []string{"unit", "property", "description", "slice", "setenv", "working-directory", "uid", "gid", "nice", "host", "machine", "on-active", "on-boot", "on-calendar"}}),
	}
	for k, v := range more {
		m[k] = v
	}
	for _, r := range []string{"uv", "poetry", "pipenv", "pdm", "hatch", "rye"} {
		m[r] = subRun(r, "run")
	}
	m["uv"] = subRunSpec("uv", "run", optSpec{argShort: "p", flags: "qv",
		argLong: []string{"extra", "group", "package", "with", "with-editable", "with-requirements", "python", "directory", "project",
			"env-file", "index", "default-index", "index-url", "extra-index-url", "find-links", "only-group", "no-group", "no-extra"},
		flagLong: []string{"frozen", "locked", "no-sync", "quiet", "verbose", "offline", "all-extras", "dev", "no-dev", "all-groups",
			"isolated", "no-project", "active", "no-active", "exact", "inexact", "no-cache", "script", "module"}})
	m["bundle"] = subRun("bundle", "exec")
	m["bunx"] = (*walker).npx
	m["npm"] = (*walker).npmExec
	m["yarn"] = subRunsSpec("yarn", []string{"dlx", "exec"}, optSpec{})
	m["pnpm"] = subRun("pnpm", "exec")
	m["mise"] = subRun("mise", "exec")
	m["asdf"] = subRun("asdf", "exec")
	m["direnv"] = (*walker).direnv
	return m
}

// simple: options (per spec), then the command.
func simple(name string, spec optSpec) wrapperFunc {
	return positional(name, 0, spec)
}

// positional: options, n operands, then the command.
func positional(name string, n int, spec optSpec) wrapperFunc {
	return func(w *walker, idx int, args []Word, texts []string) {
		s := scanOpts(texts, 1, spec)
		w.innerAt(idx, args, s, s.rest+n, name)
	}
}

// innerAt emits the command starting at start. An option the table does
// not know may take an argument: then the command may also start one word
// later, and both readings are emitted (opaque), so none is lost.
func (w *walker) innerAt(idx int, args []Word, s scanned, start int, via string) {
	if start >= len(args) {
		return
	}
	why := ""
	if len(s.unknown) > 0 {
		why = "unknown option " + s.unknown[0] + " to " + via
	}
	w.inner(idx, args[start:], via, nil, "", why)
	if why != "" && start+1 < len(args) {
		w.inner(idx, args[start+1:], via, nil, "", why)
	}
}

// stringOpt: a command that runs a shell string given with -c (or the
// long option), or else runs its operands as a command.
func stringOpt(name, short, long string, spec optSpec) wrapperFunc {
	return func(w *walker, idx int, args []Word, texts []string) {
		s := scanOpts(texts, 1, spec)
		for _, o := range s.opts {
			if (short != "" && o.name == "-"+short) || o.name == "--"+long {
				if o.has {
					w.runString(idx, wordFor(args, texts, o.value), name+" -c")
				}
			}
		}
		if len(s.unknown) > 0 {
			w.script.Clauses[idx].opaque("unknown option " + s.unknown[0] + " to " + name)
		}
	}
}

// wordFor finds the word whose text is v (to keep its literalness).
func wordFor(args []Word, texts []string, v string) Word {
	for i := len(texts) - 1; i >= 0; i-- {
		if texts[i] == v {
			return args[i]
		}
		if strings.HasSuffix(texts[i], v) && strings.HasPrefix(texts[i], "-") {
			w := args[i]
			w.Text = v
			if w.tmpl != "" {
				w.tmpl = w.tmpl[len(w.tmpl)-min(len(v), len(w.tmpl)):]
			}
			return w
		}
	}
	return Word{Text: v, Literal: true, Parts: []string{v}, tmpl: v}
}

// subRun: "uv run CMD", "bundle exec CMD" ….
func subRun(name, sub string) wrapperFunc {
	return subRunSpec(name, sub, optSpec{})
}

// subRunSpec is subRun with the options the runner takes before the
// command, so a flag (`uv run --frozen pytest`) is not read as taking the
// command as its value.
func subRunSpec(name, sub string, spec optSpec) wrapperFunc {
	return subRunsSpec(name, []string{sub}, spec)
}

// subRunsSpec is subRunSpec for a runner with several subcommands that
// run a command (`yarn exec`, `yarn dlx`): the first of them found.
func subRunsSpec(name string, subs []string, spec optSpec) wrapperFunc {
	return func(w *walker, idx int, args []Word, texts []string) {
		for i := 1; i < len(texts); i++ {
			if sub := texts[i]; slices.Contains(subs, sub) {
				s := scanOpts(texts, i+1, spec)
				start := s.rest
				if start < len(args) {
					why := ""
					if len(s.unknown) > 0 {
						why = "options to " + name + " " + sub
					}
					w.inner(idx, args[start:], name+" "+sub, nil, "", why)
					if why != "" && start+1 < len(args) {
						w.inner(idx, args[start+1:], name+" "+sub, nil, "", why)
					}
				}
				return
			}
		}
	}
}

// env takes any operand with a "=" before the command as NAME=VALUE
// (BASH_FUNC_f%%=() {…} included).
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^=/][^=]*=`) })

var envSpec = optSpec{argShort: "uCS", flags: "i0v", argLong: []string{"unset", "chdir", "split-string"},
	flagLong: []string{"ignore-environment", "null", "debug", "help", "version", "block-signal", "default-signal", "ignore-signal", "list-signal-handling"}}

// env: options (-i, -u NAME, -C DIR, -S STRING), NAME=VALUE operands, then
// the command, which gets the assignments.
func (w *walker) env(idx int, args []Word, texts []string) {
	var extra []Assign
	dir, cleared := "", false
	var unknown []string
	rest := args[1:]
	for round := 0; round < 8; round++ {
		t := make([]string, len(rest)+1)
		t[0] = "env"
		for i, a := range rest {
			t[i+1] = a.Text
		}
		s := scanOpts(t, 1, envSpec)
		unknown = append(unknown, s.unknown...)
		var split []Word
		for _, o := range s.opts {
			switch o.name {
			case "-i", "--ignore-environment":
				cleared = true
			case "-u", "--unset":
				extra = append(extra, Assign{Name: o.value, Unset: true, Value: Word{Literal: true, Parts: []string{}}})
			case "-C", "--chdir":
				dir = joinDir(dir, o.value)
			case "-S", "--split-string":
				split = append(split, splitString(o.value)...)
			}
		}
		rest = rest[s.rest-1:]
		if len(split) > 0 {
			rest = append(split, rest...)
			continue
		}
		if len(rest) > 0 && rest[0].Text == "-" {
			cleared = true
			rest = rest[1:]
			continue
		}
		break
	}
	for len(rest) > 0 && envName().MatchString(rest[0].Text) {
		name, val, _ := strings.Cut(rest[0].Text, "=")
		v := rest[0]
		v.Text = val
		extra = append(extra, Assign{Name: name, Value: v})
		rest = rest[1:]
	}
	why := ""
	if len(unknown) > 0 {
		why = "unknown option " + unknown[0] + " to env"
	}
	n := w.inner(idx, rest, "env", extra, dir, why)
	if n >= 0 && cleared {
		w.script.Clauses[n].EnvCleared = true
	}
}

// splitString splits env -S's string into words, reading it as shell words
// (env's own rules are close: whitespace, quotes, backslashes).
func splitString(s string) []Word {
	var out []Word
	f, err := parseFile(s)
	if err == nil && len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Assigns) == 0 {
			p := &walker{}
			for _, a := range call.Args {
				out = append(out, p.convert(a, ctxArg, false))
			}
			return out
		}
	}
	for _, t := range strings.Fields(s) {
		out = append(out, Word{Text: t, Literal: false, Why: "env -S string", Parts: []string{t}, tmpl: t})
	}
	return out
}

func (w *walker) command(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{flags: "pvV"})
	if s.has("-v", "-V") {
		return // only looks the command up
	}
	w.innerAt(idx, args, s, s.rest, "command")
}

func (w *walker) ionice(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "cnpPu", flags: "t", argLong: []string{"class", "classdata", "pid", "pgid", "uid"}, flagLong: []string{"ignore"}})
	if s.has("-p", "-P", "-u", "--pid", "--pgid", "--uid") {
		return
	}
	w.innerAt(idx, args, s, s.rest, "ionice")
}

func (w *walker) chrt(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "TPD", flags: "abdfiormRpve", argLong: []string{"sched-runtime", "sched-period", "sched-deadline"},
		flagLong: []string{"all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "max", "pid", "verbose", "ext"}})
	if s.has("-p", "--pid", "-m", "--max") {
		return
	}
	w.innerAt(idx, args, s, s.rest+1, "chrt")
}

func (w *walker) taskset(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{flags: "acp", flagLong: []string{"all-tasks", "cpu-list", "pid"}})
	if s.has("-p", "--pid") {
		return
	}
	w.innerAt(idx, args, s, s.rest+1, "taskset")
}

func (w *walker) sudo(idx int, args []Word, texts []string) {
	spec := optSpec{argShort: "aCcDgpRrTtUuh", flags: "ABbEeHiKklNnPSsVv",
		argLong:  []string{"user", "group", "prompt", "chdir", "chroot", "close-from", "host", "login-class", "role", "type", "command-timeout", "other-user"},
		flagLong: []string{"askpass", "background", "bell", "edit", "help", "set-home", "login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "preserve-env", "stdin", "shell", "version", "validate"}}
	// sudo's -h takes an argument only attached (-hhost); alone it is help.
	fixed := append([]string(nil), texts...)
	for i := 1; i < len(fixed); i++ {
		if fixed[i] == "-h" {
			fixed[i] = "--help"
		}
		if !strings.HasPrefix(fixed[i], "-") {
			break
		}
	}
	s := scanOpts(fixed, 1, spec)
	if s.has("-e", "--edit") {
		return // sudoedit: files, see Effects
	}
	if s.has("-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp", "--remove-timestamp") && s.rest >= len(args) {
		return
	}
	rest := args[s.rest:]
	var extra []Assign
	for len(rest) > 0 && envName().MatchString(rest[0].Text) {
		name, val, _ := strings.Cut(rest[0].Text, "=")
		v := rest[0]
		v.Text = val
		extra = append(extra, Assign{Name: name, Value: v})
		rest = rest[1:]
	}
	dir := ""
	for _, d := range s.values("-D", "--chdir") {
		dir = d
	}
	why := ""
	if len(s.unknown) > 0 {
		why = "unknown option " + s.unknown[0] + " to sudo"
	}
	if len(rest) == 0 && s.has("-s", "--shell", "-i", "--login") {
		w.script.Clauses[idx].opaque("sudo starts a shell")
		return
	}
	w.inner(idx, rest, "sudo", extra, dir, why)
}

func (w *walker) doas(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "aCu", flags: "Lns"})
	if s.has("-C", "-L") {
		return
	}
	if s.rest >= len(args) && s.has("-s") {
		w.script.Clauses[idx].opaque("doas starts a shell")
		return
	}
	w.innerAt(idx, args, s, s.rest, "doas")
}

var xargsSpec = optSpec{argShort: "adEILnPs", flags: "0eilioprtx",
	argLong:  []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
	flagLong: []string{"null", "exit", "interactive", "no-run-if-empty", "open-tty", "show-limits", "verbose", "help", "version", "eof", "replace", "max-lines"}}

func (w *walker) xargs(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, xargsSpec)
	if s.rest >= len(args) {
		return // echo
	}
	why := "arguments come from xargs' input"
	w.inner(idx, args[s.rest:], "xargs", nil, "", why)
	if len(s.unknown) > 0 && s.rest+1 < len(args) {
		w.inner(idx, args[s.rest+1:], "xargs", nil, "", why)
	}
}

func (w *walker) parallel(idx int, args []Word, texts []string) {
	w.script.Clauses[idx].opaque("parallel runs commands built from its input")
	s := scanOpts(texts, 1, optSpec{argShort: "jPSadEIX", argLong: []string{"jobs", "sshlogin", "arg-file", "delimiter", "colsep", "results", "joblog", "tmpdir", "workdir", "timeout", "delay", "retries", "tag-string", "env"}})
	end := len(args)
	for i := s.rest; i < len(texts); i++ {
		if strings.HasPrefix(texts[i], ":::") {
			end = i
			break
		}
	}
	if s.rest >= end {
		return
	}
	// parallel runs its command words through a shell, with each argument
	// given after ::: put in place of {} (or appended): the literal ones
	// are screened with it (`parallel rm ::: .git/hooks/pre-commit`).
	cmd := joinWords(args[s.rest:end])
	w.runString(idx, cmd, "parallel")
	n := 0
	for i := end; i < len(args) && n < maxParallelArgs; i++ {
		if strings.HasPrefix(texts[i], ":::") || !args[i].Literal {
			continue
		}
		n++
		run := cmd
		if strings.Contains(cmd.Text, "{}") {
			run = withText(cmd, strings.ReplaceAll(cmd.Text, "{}", quoteArg(texts[i])))
		} else {
			run = withText(cmd, cmd.Text+" "+quoteArg(texts[i]))
		}
		run.Literal = cmd.Literal
		w.runString(idx, run, "parallel")
	}
}

// maxParallelArgs bounds the ::: arguments screened with parallel's
// command; the clause is opaque anyway.
const maxParallelArgs = 64

// quoteArg single-quotes a word for a shell.
func quoteArg(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// joinWords joins words with spaces, as a string a shell would read.
func joinWords(ws []Word) Word {
	out := Word{Literal: true, Parts: []string{}}
	texts := make([]string, len(ws))
	tmpls := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.Text
		tmpls[i] = w.Text
		if !w.Literal {
			out.Literal, out.Why = false, w.Why
			tmpls[i] = w.tmpl
		}
		out.Parts = append(out.Parts, w.Parts...)
	}
	out.Text = strings.Join(texts, " ")
	out.tmpl = strings.Join(tmpls, " ")
	return out
}

func (w *walker) eval(idx int, args []Word, texts []string) {
	if len(args) < 2 {
		return
	}
	w.runString(idx, joinWords(args[1:]), "eval")
}

func (w *walker) watch(idx int, args []Word, texts []string) {
	s := scanOpts(texts, 1, optSpec{argShort: "nq", flags: "bcdegptwxr", argLong: []string{"interval", "equexit"},
		flagLong: []string{"beep", "color", "no-color", "differences", "errexit", "chgexit", "precise", "no-title", "no-wrap", "exec", "no-rerun", "no-linewrap"}})
	if s.rest >= len(args) {
		return
	}
	if s.has("-x", "--exec") {
		w.innerAt(idx, args, s, s.rest, "watch")
		return
	}
	w.runString(idx, joinWords(args[s.rest:]), "watch")
}

func (w *walker) flock(idx int, args []Word, texts []string) {
	spec := optSpec{argShort: "wEc", flags: "sxenuoFvh", argLong: []string{"timeout", "wait", "conflict-exit-code", "command"},
		flagLong: []string{"shared", "exclusive", "nonblock", "nb", "unlock", "close", "no-fork", "verbose", "help", "version"}}
	s := scanOpts(texts, 1, spec)
	for _, o := range s.opts {
		if (o.name == "-c" || o.name == "--command") && o.has {
			w.runString(idx, wordFor(args, texts, o.value), "flock -c")
			return
		}
	}
	if s.rest+1 >= len(args) {
		return // flock FD
	}
	t := scanOpts(texts, s.rest+1, spec)
	for _, o := range t.opts {
		if (o.name == "-c" || o.name == "--command") && o.has {
			w.runString(idx, wordFor(args, texts, o.value), "flock -c")
			return
		}
	}
	w.innerAt(idx, args, s, s.rest+1, "flock")
}

func (w *walker) runuser(idx int, args []Word, texts []string) {
	spec := optSpec{argShort: "cgGsuw", flags: "flmp", argLong: []string{"command", "group", "supp-group", "shell", "user", "whitelist-environment", "session-command"}, flagLong: []string{"login", "preserve-environment", "pty", "fast"}}
	s := scanOpts(texts, 1, spec)
	for _, o := range s.opts {
		if (o.name == "-c" || o.name == "--command" || o.name == "--session-command") && o.has {
			w.runString(idx, wordFor(args, texts, o.value), "runuser -c")
			return
		}
	}
	if s.has("-u", "--user") {
		w.innerAt(idx, args, s, s.rest, "runuser")
	}
}

func (w *walker) sg(idx int, args []Word, texts []string) {
	// sg GROUP [-c] COMMAND-STRING
	i := 1
	if i < len(texts) && texts[i] == "-" {
		i++
	}
	i++
	if i < len(texts) && texts[i] == "-c" {
		i++
	}
	if i < len(args) {
		w.runString(idx, args[i], "sg")
	}
}

func (w *walker) busybox(idx int, args []Word, texts []string) {
	if len(args) > 1 {
		w.inner(idx, args[1:], "busybox", nil, "", "")
	}
}

// npx runs a package's program (npx [opts] prog args) or a shell string
// (-c); bunx, pnpm dlx and yarn dlx the same.
func (w *walker) npx(idx int, args []Word, texts []string) {
	w.npxVia(idx, args, texts, baseName(texts[0]))
}

// npxVia is npx for a runner named via ("npx", "npm exec"): texts[0] is
// the word before the runner's options.
func (w *walker) npxVia(idx int, args []Word, texts []string, via string) {
	s := scanOpts(texts, 1, optSpec{argShort: "pc", argLong: []string{"package", "call"}, flagLong: []string{"yes", "no", "quiet"}})
	for _, o := range s.opts {
		if (o.name == "-c" || o.name == "--call") && o.has {
			w.runString(idx, wordFor(args, texts, o.value), via+" -c")
			return
		}
	}
	w.innerAt(idx, args, s, s.rest, via)
}

// npmExec: `npm exec` and its alias `npm x` run a package's program or a
// shell string as npx does (npm's own options may come first: a word
// that is not an option is the subcommand). Any other subcommand is not a
// wrapper; its kind is npm's table's.
func (w *walker) npmExec(idx int, args []Word, texts []string) {
	for i := 1; i < len(texts); i++ {
		if strings.HasPrefix(texts[i], "-") {
			if npmValueOpts()[texts[i]] {
				i++ // --prefix dir
			}
			continue
		}
		if texts[i] == "exec" || texts[i] == "x" {
			w.npxVia(idx, args[i:], texts[i:], "npm "+texts[i])
		}
		return
	}
}

// npmValueOpts are npm's options that take the next word as their value
// (the same list the kinds table reads, internal/typed/kind_node.go).
var npmValueOpts = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, o := range []string{"--loglevel", "--registry", "--cache", "--userconfig", "--prefix", "-w", "--workspace",
		"--tag", "--access", "--otp", "--script-shell"} {
		m[o] = true
	}
	return m
})

func (w *walker) direnv(idx int, args []Word, texts []string) {
	if len(texts) > 3 && texts[1] == "exec" {
		w.inner(idx, args[3:], "direnv exec", nil, texts[2], "")
	}
}

// shellOperands: each operand is a shell string (hyperfine 'cmd' 'cmd2',
// watchexec 'cmd').
func shellOperands(name string, spec optSpec) wrapperFunc {
	return func(w *walker, idx int, args []Word, texts []string) {
		idx2, s := operands(texts, spec)
		for _, v := range s.values("--setup", "--prepare", "--conclude", "--cleanup", "-s", "-p") {
			w.runString(idx, wordFor(args, texts, v), name)
		}
		for _, i := range idx2 {
			w.runString(idx, args[i], name)
		}
	}
}

func (w *walker) perf(idx int, args []Word, texts []string) {
	if len(texts) < 2 {
		return
	}
	switch texts[1] {
	case "stat", "record", "trace", "top", "c2c", "mem", "sched", "kvm":
		s := scanOpts(texts, 2, optSpec{argShort: "eoCcpGtrIDxMjFmuT", flags: "aAdgnqsvSPiBz"})
		w.innerAt(idx, args, s, s.rest, "perf "+texts[1])
	}
}
