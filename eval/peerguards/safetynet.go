package peerguards

import (
	"fmt"
	"slices"
	"strings"
)

// SafetyNet reads claude-code-safety-net's core tests (tests/core/**/*.ts):
// every `assertBlocked(command, …)` is Block and every
// `assertAllowed(command, …)` Allow; `runGuard(command, …)` counts where
// the test says what it returns (`toBeNull()` or `toBe(null)` is Allow,
// `not.toBeNull()`, `toContain(…)` or `toMatch(…)` is Block), directly or
// through a `const` it is stored in. A call inside `withEnv({…}, …)` has
// those variables (the peer's strict and paranoid modes, its worktree mode)
// as its context, and so has a call given a working directory or a config.
// A call in a file that writes the peer's config (`.safety-net.json`, with
// custom rules) has CustomRule in its context: its verdict is the test's
// rule, not the peer's own. A call whose command is built at run time is
// listed as skipped.
func SafetyNet(s *Source) (*Corpus, error) {
	c := &Corpus{Peer: "claude-code-safety-net", Repository: "https://github.com/kenryu42/claude-code-safety-net", Commit: s.Commit(), License: "MIT"}
	files, err := s.Files("tests/core", ".ts")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		text, err := s.Read(f)
		if err != nil {
			return nil, err
		}
		toks, err := jsScan(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		c.Paths = append(c.Paths, f)
		snFile(c, f, toks)
	}
	c.Cases = dedupe(c.Cases)
	return c, nil
}

// envRange is the token span of a withEnv call and the variables it sets.
type envRange struct {
	from, to int
	vars     string
}

func snFile(c *Corpus, f string, toks []jsTok) {
	custom := slices.ContainsFunc(toks, func(t jsTok) bool { return t.kind == 'i' && t.text == "writeConfig" })
	envs := withEnvRanges(toks)
	envAt := func(i int) string {
		var vs []string
		for _, r := range envs {
			if i > r.from && i < r.to {
				vs = append(vs, r.vars)
			}
		}
		return strings.Join(vs, " ")
	}
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != 'i' || toks[i+1].text != "(" || (i > 0 && (toks[i-1].text == "function" || toks[i-1].text == ".")) {
			continue
		}
		var verdict string
		var cwdArg int // the argument that is a working directory (0: none)
		switch t.text {
		case "assertBlocked":
			verdict, cwdArg = Block, 2
		case "assertAllowed":
			verdict, cwdArg = Allow, 1
		case "runGuard":
			verdict, cwdArg = runGuardVerdict(toks, i), 1
			if verdict == "" {
				c.Skipped = append(c.Skipped, Skipped{Source: fmt.Sprintf("%s:%d", f, t.line), Why: "runGuard whose result the test does not compare with null or a reason"})
				continue
			}
		default:
			continue
		}
		args, _ := callArgs(toks, i+1)
		if len(args) == 0 || len(args[0]) != 1 || args[0][0].kind != 's' || args[0][0].interp {
			c.Skipped = append(c.Skipped, Skipped{Source: fmt.Sprintf("%s:%d", f, t.line), Why: t.text + " with a command built at run time"})
			continue
		}
		ctx := []string{}
		if custom {
			ctx = append(ctx, CustomRule)
		}
		if e := envAt(i); e != "" {
			ctx = append(ctx, e)
		}
		if len(args) > cwdArg {
			ctx = append(ctx, "cwd "+tokText(args[cwdArg]))
		}
		if len(args) > cwdArg+1 {
			ctx = append(ctx, "config "+tokText(args[cwdArg+1]))
		}
		cmd := args[0][0]
		c.Cases = append(c.Cases, Case{Command: cmd.text, Verdict: verdict, Context: strings.Join(ctx, "; "), Source: fmt.Sprintf("%s:%d", f, cmd.line)})
	}
}

// withEnvRanges finds every `withEnv({ K: 'v', … }, …)` call.
func withEnvRanges(toks []jsTok) []envRange {
	var out []envRange
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].text != "withEnv" || toks[i+1].text != "(" || toks[i+2].text != "{" || (i > 0 && toks[i-1].text == "function") {
			continue
		}
		var vars []string
		j := i + 3
		for ; j+2 < len(toks) && toks[j].text != "}"; j++ {
			if (toks[j].kind == 'i' || toks[j].kind == 's') && toks[j+1].text == ":" {
				vars = append(vars, toks[j].text+"="+toks[j+2].text)
			}
		}
		_, end := callArgs(toks, i+1)
		out = append(out, envRange{from: i, to: end, vars: strings.Join(vars, " ")})
	}
	return out
}

// callArgs splits the arguments of the call whose "(" is at open into
// token slices and returns them with the index of the closing ")".
func callArgs(toks []jsTok, open int) ([][]jsTok, int) {
	var args [][]jsTok
	var cur []jsTok
	depth := 0
	for j := open; j < len(toks); j++ {
		t := toks[j]
		if t.kind == 'p' {
			switch t.text {
			case "(", "[", "{":
				depth++
				if depth == 1 {
					continue
				}
			case ")", "]", "}":
				depth--
				if depth == 0 {
					if len(cur) > 0 {
						args = append(args, cur)
					}
					return args, j
				}
			case ",":
				if depth == 1 {
					args = append(args, cur)
					cur = nil
					continue
				}
			}
		}
		cur = append(cur, t)
	}
	return args, len(toks)
}

// runGuardVerdict reads what the test expects of the runGuard call at i:
// `expect(runGuard(…)).…` or `const x = runGuard(…)` then `expect(x).…`.
func runGuardVerdict(toks []jsTok, i int) string {
	if i >= 2 && toks[i-1].text == "(" && toks[i-2].text == "expect" {
		_, end := callArgs(toks, i+1)
		if end+1 < len(toks) && toks[end+1].text == ")" {
			return matcherVerdict(toks, end+2)
		}
		return ""
	}
	if i >= 3 && toks[i-1].text == "=" && toks[i-2].kind == 'i' && (toks[i-3].text == "const" || toks[i-3].text == "let") {
		name := toks[i-2].text
		_, end := callArgs(toks, i+1)
		for j := end; j+3 < len(toks); j++ {
			if toks[j].text == "expect" && toks[j+1].text == "(" && toks[j+2].text == name && toks[j+3].text == ")" {
				return matcherVerdict(toks, j+4)
			}
		}
	}
	return ""
}

// matcherVerdict reads `.toBeNull()`, `.toBe(null)`, `.not.toBeNull()`,
// `.toContain(…)` or `.toMatch(…)` at k.
func matcherVerdict(toks []jsTok, k int) string {
	if k+1 >= len(toks) || toks[k].text != "." {
		return ""
	}
	m := toks[k+1].text
	if m == "not" && k+3 < len(toks) && toks[k+2].text == "." {
		if toks[k+3].text == "toBeNull" {
			return Block
		}
		return ""
	}
	switch m {
	case "toBeNull":
		return Allow
	case "toBe":
		if k+3 < len(toks) && toks[k+3].text == "null" {
			return Allow
		}
	case "toContain", "toMatch":
		return Block
	}
	return ""
}

func tokText(ts []jsTok) string {
	var b strings.Builder
	for _, t := range ts {
		if t.kind == 's' {
			b.WriteString("'" + t.text + "'")
			continue
		}
		b.WriteString(t.text)
	}
	return b.String()
}
