package loops

import (
	"path"
	"strings"
)

// A runner runs the command that follows it: `uv run pytest`, `python -m
// pytest`, `npx eslint .`. An allow entry that stops at the runner (`Bash(uv
// *)`, `Bash(uv run *)`, `Bash(python -m *)`, `Bash(npx *)`) allows a
// runner's call only when the loop allows the command it runs, as written
// after the runner: `uv run pytest -q` under `Bash(pytest *)`, never more
// (docs/typed-entries.md#runners). The runner's own options must be among
// the few that keep it to the project's locked environment; any other
// (`uv run --with evil`, `npx --package x`, `uvx --from git+…`) asks.
type runner struct {
	prefix []string
	// flags are options that take no value; valued take one (`--extra
	// dev` or `--extra=dev`).
	flags, valued []string
	// downloads: it always fetches what it runs from a registry, so no
	// entry allows through it (runnerOf is never ok); an entry that names
	// it (`Bash(pnpm dlx *)`) is a catch-all.
	downloads bool
}

// lookedThrough lists the runners an entry may stop at. Those that always
// download what they run (`pnpm dlx`, `yarn dlx`, `pipx run`) are listed
// so that `Bash(pnpm *)` does not reach through them; they allow nothing.
var lookedThrough = []runner{
	{prefix: []string{"uv", "run"}, flags: []string{"--frozen", "--locked", "--no-sync", "-q", "--quiet", "-v", "--verbose",
		"--offline", "--all-extras", "--dev", "--no-dev", "--all-groups"}, valued: []string{"--extra", "--group", "--package"}},
	{prefix: []string{"uv", "tool", "run"}, flags: []string{"-q", "--quiet", "--offline"}},
	{prefix: []string{"uvx"}, flags: []string{"-q", "--quiet", "--offline"}},
	{prefix: []string{"poetry", "run"}, flags: []string{"-q", "--quiet", "-v", "--verbose", "-n", "--no-interaction"}},
	{prefix: []string{"npx"}, flags: []string{"--no", "--no-install", "--offline", "-q", "--quiet"}},
	{prefix: []string{"npm", "exec"}, flags: []string{"--no", "--offline"}},
	{prefix: []string{"npm", "x"}, flags: []string{"--no", "--offline"}},
	{prefix: []string{"pnpm", "exec"}},
	{prefix: []string{"yarn", "exec"}},
	{prefix: []string{"bundle", "exec"}},
	{prefix: []string{"python", "-m"}},
	{prefix: []string{"python3", "-m"}},
	{prefix: []string{"pnpm", "dlx"}, downloads: true},
	{prefix: []string{"yarn", "dlx"}, downloads: true},
	{prefix: []string{"pipx", "run"}, downloads: true},
}

// runnerOf finds the runner a command starts with. inner is the command it
// runs, and ok is false when a runner option outside the runner's list
// stands before it (or it names none).
func runnerOf(argv []Arg) (r *runner, inner []Arg, ok bool) {
	for i := range lookedThrough {
		cand := &lookedThrough[i]
		if len(argv) < len(cand.prefix) || !prefixTexts(argv, cand.prefix) || anyGlob(argv[:len(cand.prefix)]) {
			continue
		}
		if cand.downloads {
			return cand, nil, false
		}
		rest := argv[len(cand.prefix):]
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			switch {
			case a.Glob:
				return cand, nil, false
			case a.Text == "--":
				return cand, rest[j+1:], j+1 < len(rest)
			case !strings.HasPrefix(a.Text, "-") || a.Text == "-":
				return cand, rest[j:], true
			case contains(cand.flags, a.Text):
			case contains(cand.valued, a.Text) && j+1 < len(rest):
				j++
			default:
				name, _, eq := strings.Cut(a.Text, "=")
				if !eq || !contains(cand.valued, name) {
					return cand, nil, false
				}
			}
		}
		return cand, nil, false
	}
	return nil, nil, false
}

func anyGlob(args []Arg) bool {
	for _, a := range args {
		if a.Glob {
			return true
		}
	}
	return false
}

// runnerEntry reports an entry that stops at a runner it looks through:
// its words are the runner's first words, or the runner and options only
// (`Bash(uv *)`, `Bash(uv run *)`, `Bash(uv run --frozen *)`, `Bash(npx
// *)`, `Bash(python -m *)`). Such an entry is not a catch-all, but it
// allows a call of the runner only through the command the runner runs.
func (c *cmdPattern) runnerEntry() bool {
	if !c.rest || len(c.args) == 0 || anyGlob(c.args) {
		return false
	}
	for _, r := range lookedThrough {
		n := min(len(c.args), len(r.prefix))
		if !prefixTexts(c.args[:n], r.prefix[:n]) {
			continue
		}
		if r.downloads && n == len(r.prefix) || interpreters()[r.prefix[0]] && n < len(r.prefix) {
			// `Bash(pnpm dlx *)` and `Bash(python *)` stay catch-alls.
			continue
		}
		for _, a := range c.args[n:] {
			if !strings.HasPrefix(a.Text, "-") {
				return false
			}
		}
		return true
	}
	return false
}

// stopsAtRunner reports a command run through a runner the entry's words
// do not go past: the entry matches it only through allowingThroughRunner.
func (c *cmdPattern) stopsAtRunner(argv []Arg) bool {
	r, _, _ := runnerOf(argv)
	if r == nil {
		return false
	}
	for i, a := range c.args {
		if i >= len(r.prefix) && !strings.HasPrefix(a.Text, "-") {
			return false // `Bash(uv run pytest *)` names what it runs
		}
	}
	return true
}

// allowingThroughRunner is the allow entry that stops at c's runner, when
// the loop allows the command the runner runs and no ask or never entry
// screens it (the runner's own call must still be allowed by its entry's
// prefix assignments and location).
func (tw *TypedWarrant) allowingThroughRunner(c Call) *Typed {
	r, inner, ok := runnerOf(c.Cmd.Argv)
	if r == nil || !ok || len(inner) == 0 {
		return nil
	}
	var entry *Typed
	for _, t := range tw.Allow {
		p := t.cmd
		if t.Tool != ToolBash || p == nil || !p.runnerEntry() || p.local && !c.Cmd.AtRoot || !assignsEqual(p.assigns, c.Cmd.Assigns) {
			continue
		}
		if len(p.args) <= len(c.Cmd.Argv) && p.matchArgs(c.Cmd.Argv) && p.stopsAtRunner(c.Cmd.Argv) {
			entry = t
			break
		}
	}
	if entry == nil {
		return nil
	}
	in := c
	in.Cmd = Command{Argv: inner, AtRoot: c.Cmd.AtRoot}
	if path.Base(r.prefix[0]) == "python" || path.Base(r.prefix[0]) == "python3" {
		// `python -m pytest` is the pytest command; a dotted module
		// (`http.server`) names no command an entry could allow.
		if strings.ContainsAny(inner[0].Text, "./") {
			return nil
		}
	}
	if tw.Escalating(in) != nil || tw.Allowing(in) == nil {
		return nil
	}
	return entry
}

// ReadsThrough says what an allow entry that stops at make or at a runner
// allows, for lint to explain (docs/typed-entries.md#make, #runners): ""
// for any other entry.
func (t *Typed) ReadsThrough() string {
	c := t.cmd
	if t.Tool != ToolBash || c == nil || !c.rest || c.catchAll() != "" || len(c.args) == 0 {
		return ""
	}
	if n := path.Base(c.args[0].Text); (n == "make" || n == "gmake") && len(c.args) == 1 {
		return "it allows the targets of the committed Makefile, as HEAD holds it and while the loop does not let the agent edit it, " +
			"each recipe read as the gate reads a script; never another Makefile (-f), directory (-C), include path (-I), " +
			"a variable on the command line (VAR=…), --eval or -e"
	}
	if !c.runnerEntry() {
		return ""
	}
	var via []string
	for _, r := range lookedThrough {
		n := min(len(c.args), len(r.prefix))
		if !r.downloads && prefixTexts(c.args[:n], r.prefix[:n]) {
			via = append(via, "`"+strings.Join(r.prefix, " ")+" X`")
		}
	}
	why := "it allows " + strings.Join(via, ", ") + " only where the loop allows X itself (Bash(pytest *) allows `" +
		strings.Join(lookedThroughPrefix(c), " ") + " pytest`), with none of the runner's options that add packages, " +
		"pick another interpreter or fetch what it runs; never an interpreter one-liner or a package no entry names"
	if own := argTexts(c.args); len(c.args) < 2 && !interpreters()[own] {
		why += "; every other " + own + " command is allowed as by any entry ending in ` *`"
	}
	return why
}

// lookedThroughPrefix is the first runner an entry stops at, spelt out.
func lookedThroughPrefix(c *cmdPattern) []string {
	for _, r := range lookedThrough {
		n := min(len(c.args), len(r.prefix))
		if !r.downloads && prefixTexts(c.args[:n], r.prefix[:n]) {
			return r.prefix
		}
	}
	return nil
}
