package shell

import (
	"strings"
	"sync"
)

// codeVars are environment variables whose value is code or makes a
// program load code: a clause that sets one is opaque. See
// docs/shell.md#opaque.
var codeVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS0": true, "PS1": true, "PS2": true, "PS4": true,
		"SHELLOPTS": true, "BASHOPTS": true, "LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true,
		"DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true, "NODE_OPTIONS": true, "PERL5OPT": true,
		"PERL5LIB": true, "RUBYOPT": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "LESSOPEN": true,
		"LESSCLOSE": true, "PYTHONSTARTUP": true, "PYTHONINSPECT": true, "ZDOTDIR": true,
	}
})

// codeVar says why an assignment makes its clause run other code, or "".
func codeVar(name string) string {
	if codeVars()[name] {
		return name + " makes the shell or a program run other code"
	}
	if strings.HasPrefix(name, "BASH_FUNC_") {
		return "exported function " + name
	}
	switch {
	case name == "GOFLAGS" || name == "GOENV" || name == "CC" || name == "CXX" || name == "MAKEFLAGS",
		strings.HasPrefix(name, "CGO_") && strings.HasSuffix(name, "FLAGS"):
		// go -toolexec/-exec/-vettool, a compiler or a plugin it loads
		return name + " makes the go command or make run another program"
	}
	return ""
}

// CodeVar says why an environment assignment makes the command it reaches
// run other code (LD_PRELOAD, BASH_ENV, GOFLAGS, CC …), or "". See
// docs/shell.md#opaque.
func CodeVar(name string) string { return codeVar(name) }

// codeOptions lists, per command, options that make it run a program:
// the clause is opaque (and a shell string given is re-parsed).
var codeOptions = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"tar":         {"--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--info-script", "-F", "--new-volume-script", "--rsh-command", "--rmt-command"},
		"rsync":       {"-e", "--rsh", "--rsync-path"},
		"scp":         {"-S", "-oProxyCommand", "-oLocalCommand", "-oPermitLocalCommand"},
		"sftp":        {"-S", "-D", "-oProxyCommand"},
		"ssh":         {"-oProxyCommand", "-oLocalCommand", "-oPermitLocalCommand", "-oKnownHostsCommand"},
		"zip":         {"-TT", "--unzip-command"},
		"gdb":         {"-ex", "--eval-command", "-x", "--command", "-batch"},
		"nc":          {"-e", "-c"},
		"ncat":        {"-e", "-c", "--exec", "--sh-exec", "--lua-exec"},
		"less":        {"+!"},
		"man":         {"-P", "--pager", "-H", "--html"},
		"git":         {},
		"make":        {"--eval", "-E"},
		"nmap":        {"--script"},
		"openssl":     {"-engine"},
		"systemd-run": {""},
		"enable":      {"-f"},
		"tmux":        {""},
		"screen":      {""},
		"at":          {""},
		"batch":       {""},
		"crontab":     {""},
		"socat":       {},
		"mutt":        {"-e"},
		"docker":      {},
		"podman":      {},
		"nerdctl":     {},
		"journalctl":  {},
		"pip":         {},
	}
})

// clusterCmds take short options bundled (-avze).
var clusterCmds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"tar": true, "rsync": true, "nc": true, "ncat": true, "scp": true, "sftp": true}
})

// codeOption says why a clause's options make its command run a program.
func codeOption(name string, texts []string) string {
	opts, ok := codeOptions()[name]
	if !ok {
		return ""
	}
	switch name {
	case "systemd-run", "at", "batch":
		return name + " runs commands later or elsewhere"
	case "tmux", "screen":
		if len(texts) > 1 {
			return name + " runs commands in a terminal it starts"
		}
		return ""
	case "crontab":
		for _, t := range texts[1:] {
			if t == "-l" {
				return ""
			}
		}
		return "crontab installs commands to run later"
	case "docker", "podman", "nerdctl":
		return containerRun(name, texts)
	case "socat":
		for _, t := range texts[1:] {
			l := strings.ToLower(t)
			if strings.Contains(l, "exec:") || strings.Contains(l, "system:") {
				return "socat runs a program"
			}
		}
		return ""
	}
	for _, t := range texts[1:] {
		for _, o := range opts {
			if o == "" {
				continue
			}
			if len(o) == 2 && clusterCmds()[name] && strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.IndexByte(t[1:], o[1]) >= 0 {
				return name + " " + o + " runs a program"
			}
			if t == o || strings.HasPrefix(t, o+"=") || (strings.HasPrefix(o, "-o") && strings.HasPrefix(strings.ReplaceAll(t, " ", ""), o)) ||
				(len(o) == 2 && o[0] == '-' && strings.HasPrefix(t, o) && !strings.HasPrefix(t, "--")) {
				return name + " " + o + " runs a program"
			}
		}
		if (name == "ssh" || name == "scp" || name == "sftp") && strings.HasPrefix(t, "-o") {
			l := strings.ToLower(strings.TrimPrefix(t, "-o"))
			if strings.Contains(l, "proxycommand") || strings.Contains(l, "localcommand") || strings.Contains(l, "knownhostscommand") {
				return name + " " + t + " runs a program"
			}
		}
	}
	if name == "ssh" || name == "scp" {
		for i, t := range texts[1:] {
			if t == "-o" && i+2 < len(texts) {
				l := strings.ToLower(texts[i+2])
				if strings.Contains(l, "proxycommand") || strings.Contains(l, "localcommand") || strings.Contains(l, "knownhostscommand") {
					return name + " -o " + texts[i+2] + " runs a program"
				}
			}
		}
	}
	return ""
}

// gitRuns follows what a git command runs as shell: rebase --exec,
// submodule foreach, bisect run, difftool --extcmd, filter-branch filters,
// and aliases given with -c alias.x='!cmd'.
func (w *walker) gitRuns(idx int) {
	c := w.script.Clauses[idx]
	g, ok := c.Git()
	if !ok {
		return
	}
	if g.Opaque {
		w.script.Clauses[idx].opaque(g.Why)
	}
	lit := func(v string) Word { return Word{Text: v, Literal: true, Parts: []string{v}, tmpl: v} }
	for k, vs := range g.Config {
		if strings.HasPrefix(k, "alias.") {
			for _, v := range vs {
				if strings.HasPrefix(v, "!") {
					w.runString(idx, lit(v[1:]), "git alias")
				}
			}
		}
	}
	for _, e := range g.Edits {
		name, ok := strings.CutPrefix(e.Key, "alias.")
		if !ok {
			continue
		}
		if strings.HasPrefix(e.Value, "!") {
			w.runString(idx, lit(e.Value[1:]), "git alias")
		}
		if w.aliases != nil && (e.Op == "set" || e.Op == "add") {
			m := map[string]string{}
			for k, v := range *w.aliases {
				m[k] = v
			}
			m[strings.ToLower(name)] = e.Value
			*w.aliases = m
		}
	}
	switch g.Sub {
	case "rebase":
		for _, o := range g.Options {
			if o.is("exec") && o.HasValue {
				w.runString(idx, lit(o.Value), "git rebase --exec")
			}
		}
	case "grep":
		// -O[<pager>] / --open-files-in-pager[=<pager>] runs the pager (a
		// shell command) on the matching files; --op… is its shortest
		// unique prefix.
		for i, a := range g.Args {
			t := a.Text
			if t == "--" {
				break
			}
			long, val, eq := strings.Cut(strings.TrimPrefix(t, "--"), "=")
			switch {
			case strings.HasPrefix(t, "--") && len(long) >= 2 && strings.HasPrefix("open-files-in-pager", long):
				if eq {
					w.runString(idx, lit(val), "git grep --open-files-in-pager")
				}
				w.script.Clauses[idx].opaque("git grep --open-files-in-pager runs a pager program")
			case !strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-") && i > 0 && g.Args[i-1].Text == "-e":
				// a pattern, not options
			case !strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-"):
				// The first option of the cluster that takes a value ends it.
				j := strings.IndexAny(t[1:], "eABCfmO")
				if j < 0 || t[1+j] != 'O' {
					continue
				}
				if v := t[j+2:]; v != "" {
					w.runString(idx, lit(v), "git grep -O")
				}
				w.script.Clauses[idx].opaque("git grep -O runs a pager program")
			}
		}
	case "difftool", "mergetool":
		for i, a := range g.Args {
			if (a.Text == "-x" || a.Text == "--extcmd") && i+1 < len(g.Args) {
				w.runString(idx, g.Args[i+1], "git "+g.Sub)
			}
			if v, ok := strings.CutPrefix(a.Text, "--extcmd="); ok {
				w.runString(idx, lit(v), "git "+g.Sub)
			}
		}
	case "submodule":
		for i, a := range g.Operands {
			if a.Text == "foreach" && i+1 < len(g.Operands) {
				rest := g.Operands[i+1:]
				for len(rest) > 0 && strings.HasPrefix(rest[0].Text, "-") {
					rest = rest[1:]
				}
				if len(rest) > 0 {
					w.runString(idx, joinWords(rest), "git submodule foreach")
				}
			}
		}
	case "bisect":
		for i, a := range g.Args {
			if a.Text == "run" && i+1 < len(g.Args) {
				w.inner(idx, g.Args[i+1:], "git bisect run", nil, "", "")
				break
			}
		}
	case "filter-branch":
		for i, a := range g.Args {
			if strings.HasSuffix(a.Text, "-filter") && strings.HasPrefix(a.Text, "--") && i+1 < len(g.Args) {
				w.runString(idx, g.Args[i+1], "git filter-branch")
			}
		}
	}
}

// trapAlias follows trap 'cmd' SIG and alias name='cmd': their strings run
// later as shell.
func (w *walker) trapAlias(idx int, args []Word, texts []string) {
	switch baseName(texts[0]) {
	case "trap":
		i := 1
		for i < len(texts) && strings.HasPrefix(texts[i], "-") && texts[i] != "-" {
			if texts[i] == "--" {
				i++
				break
			}
			i++
		}
		if i < len(args) && i+1 < len(args) {
			w.runString(idx, args[i], "trap")
		}
	case "mapfile", "readarray":
		for i := 1; i+1 < len(args); i++ {
			if texts[i] == "-C" {
				w.runString(idx, args[i+1], texts[0]+" -C")
			}
		}
	case "alias":
		for i := 1; i < len(args); i++ {
			if _, v, ok := strings.Cut(texts[i], "="); ok {
				a := args[i]
				a.Text = v
				if a.tmpl != "" {
					if _, tv, ok := strings.Cut(a.tmpl, "="); ok {
						a.tmpl = tv
					}
				}
				w.runString(idx, a, "alias")
			}
		}
	}
}

// containerRun: a container that mounts host paths (run/create with -v,
// --volume or --mount) can write anywhere they lead; exec runs in a
// container whose mounts are unknown.
func containerRun(name string, texts []string) string {
	sub := ""
	for _, t := range texts[1:] {
		if !strings.HasPrefix(t, "-") {
			sub = t
			break
		}
	}
	switch sub {
	case "exec":
		return name + " exec runs a command in a container"
	case "run", "create", "container":
		for _, t := range texts[2:] {
			if t == "-v" || t == "--volume" || t == "--mount" || strings.HasPrefix(t, "-v") || strings.HasPrefix(t, "--volume=") ||
				strings.HasPrefix(t, "--mount=") || t == "--privileged" || strings.HasPrefix(t, "--volumes-from") {
				return name + " " + sub + " mounts host paths"
			}
		}
	case "compose":
		for _, t := range texts[2:] {
			if t == "run" || t == "exec" {
				return name + " compose " + t + " runs a command in a container"
			}
		}
	}
	return ""
}
