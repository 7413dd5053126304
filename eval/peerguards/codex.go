package peerguards

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// Codex reads the examples and tests of openai/codex's exec policy:
//
//   - codex-rs/execpolicy/examples/*.codexpolicy: each prefix_rule's
//     `match` examples get the rule's decision (allow when it names none;
//     prompt is Ask, forbidden is Block);
//   - codex-rs/execpolicy-legacy/src/default.policy, the policy the legacy
//     engine ships: each define_program's `should_match` examples are
//     Allow, and its `should_not_match` examples are Ask (not provably
//     safe, so codex asks) where no other define_program names the same
//     program — otherwise they are skipped, since another definition may
//     match them;
//   - codex-rs/execpolicy-legacy/tests/suite/*.rs: each
//     `ExecCall::new(program, args)` checked against the default policy,
//     with the verdict its assert_eq! expects (`Ok(MatchedExec::Match …)`
//     is Allow, `Forbidden` Block, `Err(…)` Ask).
//
// Test files that build their own policy inline (PolicyParser), such as
// codex-rs/execpolicy/tests/basic.rs, are skipped whole: their verdicts
// say how the engine applies a rule written for the test (one forbids
// `git commit`), not what codex decides of the command.
func Codex(s *Source) (*Corpus, error) {
	c := &Corpus{Peer: "codex-execpolicy", Repository: "https://github.com/openai/codex", Commit: s.Commit(), License: "Apache-2.0"}
	examples, err := s.Files("codex-rs/execpolicy/examples", ".codexpolicy")
	if err != nil {
		return nil, err
	}
	for _, f := range examples {
		if err := codexFile(c, s, f, codexPrefixRules); err != nil {
			return nil, err
		}
	}
	if err := codexFile(c, s, "codex-rs/execpolicy-legacy/src/default.policy", codexDefinePrograms); err != nil {
		return nil, err
	}
	for _, dir := range []string{"codex-rs/execpolicy/tests", "codex-rs/execpolicy-legacy/tests"} {
		tests, err := s.Files(dir, ".rs")
		if err != nil {
			return nil, err
		}
		for _, f := range tests {
			if err := codexFile(c, s, f, codexExecCalls); err != nil {
				return nil, err
			}
		}
	}
	c.Cases = dedupe(c.Cases)
	return c, nil
}

func codexFile(c *Corpus, s *Source, f string, read func(*Corpus, string, string) error) error {
	text, err := s.Read(f)
	if err != nil {
		return err
	}
	c.Paths = append(c.Paths, f)
	if err := read(c, f, text); err != nil {
		return fmt.Errorf("%s: %w", f, err)
	}
	return nil
}

// starCall is one top-level call of a policy file with its keyword
// arguments' token slices.
type starCall struct {
	name string
	line int
	kw   map[string][]jsTok
}

// starCalls reads the top-level calls of a Starlark policy file.
func starCalls(text string) ([]starCall, error) {
	toks, err := starScan(text)
	if err != nil {
		return nil, err
	}
	var out []starCall
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].kind != 'i' || toks[i+1].text != "(" {
			continue
		}
		args, end := callArgs(toks, i+1)
		call := starCall{name: toks[i].text, line: toks[i].line, kw: map[string][]jsTok{}}
		for _, a := range args {
			if len(a) >= 2 && a[0].kind == 'i' && a[1].text == "=" {
				call.kw[a[0].text] = a[2:]
			}
		}
		out = append(out, call)
		i = end
	}
	return out, nil
}

// starScan tokenizes Starlark: '#' comments and triple-quoted strings, the
// rest as jsScan reads it.
func starScan(text string) ([]jsTok, error) {
	var b strings.Builder
	lines := strings.Split(text, "\n")
	inTriple := false
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		// a triple-quoted docstring is dropped; its lines stay, so line
		// numbers hold
		if inTriple || strings.HasPrefix(strings.TrimSpace(l), `"""`) {
			n := strings.Count(l, `"""`)
			if n%2 == 1 {
				inTriple = !inTriple
			}
			continue
		}
		b.WriteString(stripHashComment(l))
	}
	return jsScan(b.String())
}

func stripHashComment(l string) string {
	var q byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case q != 0 && c == '\\':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return l[:i]
		}
	}
	return l
}

// starExamples reads a list of examples: each a list of words or one
// command string. It returns the commands and the lines they are on.
func starExamples(ts []jsTok, program string) ([]string, []int) {
	var cmds []string
	var lines []int
	if len(ts) < 2 || ts[0].text != "[" {
		return nil, nil
	}
	elems, _ := callArgs(ts, 0)
	for _, e := range elems {
		switch {
		case len(e) == 1 && e[0].kind == 's':
			cmds = append(cmds, strings.TrimSpace(program+" "+e[0].text))
			lines = append(lines, e[0].line)
		case len(e) >= 2 && e[0].text == "[":
			words, _ := callArgs(e, 0)
			argv := []string{}
			if program != "" {
				argv = append(argv, program)
			}
			for _, w := range words {
				if len(w) == 1 && w[0].kind == 's' {
					argv = append(argv, w[0].text)
				}
			}
			cmds = append(cmds, shellJoin(argv))
			lines = append(lines, e[0].line)
		}
	}
	return cmds, lines
}

func starString(ts []jsTok) string {
	if len(ts) == 1 && ts[0].kind == 's' {
		return ts[0].text
	}
	return ""
}

// codexPrefixRules reads an example policy's prefix_rule examples.
func codexPrefixRules(c *Corpus, f, text string) error {
	calls, err := starCalls(text)
	if err != nil {
		return err
	}
	for _, call := range calls {
		if call.name != "prefix_rule" {
			continue
		}
		v := Allow
		switch d := starString(call.kw["decision"]); d {
		case "", "allow":
		case "prompt":
			v = Ask
		case "forbidden":
			v = Block
		default:
			return fmt.Errorf("line %d: unknown decision %q", call.line, d)
		}
		cmds, lines := starExamples(call.kw["match"], "")
		for k, cmd := range cmds {
			c.Cases = append(c.Cases, Case{Command: cmd, Verdict: v, Context: "example policy (" + path.Base(f) + ")", Source: fmt.Sprintf("%s:%d", f, lines[k])})
		}
		_, lines = starExamples(call.kw["not_match"], "")
		for _, l := range lines {
			c.Skipped = append(c.Skipped, Skipped{Source: fmt.Sprintf("%s:%d", f, l), Why: "a not_match example: no rule of the example policy decides it"})
		}
	}
	return nil
}

// codexDefinePrograms reads the legacy default policy's examples.
func codexDefinePrograms(c *Corpus, f, text string) error {
	calls, err := starCalls(text)
	if err != nil {
		return err
	}
	defs := map[string]int{}
	for _, call := range calls {
		if call.name == "define_program" {
			defs[starString(call.kw["program"])]++
		}
	}
	for _, call := range calls {
		if call.name != "define_program" {
			continue
		}
		prog := starString(call.kw["program"])
		cmds, lines := starExamples(call.kw["should_match"], prog)
		for k, cmd := range cmds {
			c.Cases = append(c.Cases, Case{Command: cmd, Verdict: Allow, Source: fmt.Sprintf("%s:%d", f, lines[k])})
		}
		cmds, lines = starExamples(call.kw["should_not_match"], prog)
		for k, cmd := range cmds {
			where := fmt.Sprintf("%s:%d", f, lines[k])
			if defs[prog] > 1 {
				c.Skipped = append(c.Skipped, Skipped{Source: where, Why: "should_not_match of one of several define_program for " + prog + ": another may match " + cmd})
				continue
			}
			c.Cases = append(c.Cases, Case{Command: cmd, Verdict: Ask, Source: where})
		}
	}
	return nil
}

var rustRawString = regexp.MustCompile(`(?s)r#+"(.*?)"#+`)

// codexExecCalls reads a legacy test file's ExecCall checks.
func codexExecCalls(c *Corpus, f, text string) error {
	if strings.Contains(text, "PolicyParser") {
		c.Skipped = append(c.Skipped, Skipped{Source: f, Why: "its tests check commands against policies written inside the test, not codex's own"})
		return nil
	}
	// raw strings are blanked, keeping their lines, so the scanner never
	// reads their quotes
	text = rustRawString.ReplaceAllStringFunc(text, func(m string) string {
		return `""` + strings.Repeat("\n", strings.Count(m, "\n"))
	})
	toks, err := jsScan(text)
	if err != nil {
		return err
	}
	lets := map[string][]jsTok{} // let x = &[…];
	for i := 0; i+5 < len(toks); i++ {
		if toks[i].text == "let" && toks[i+1].kind == 'i' && toks[i+2].text == "=" && toks[i+3].text == "&" && toks[i+4].text == "[" {
			lets[toks[i+1].text] = toks[i+4:]
		}
		if !(toks[i].text == "ExecCall" && toks[i+1].text == ":" && toks[i+2].text == ":" && toks[i+3].text == "new" && toks[i+4].text == "(") {
			continue
		}
		args, end := callArgs(toks, i+4)
		if len(args) != 2 || starString(args[0]) == "" {
			c.Skipped = append(c.Skipped, Skipped{Source: fmt.Sprintf("%s:%d", f, toks[i].line), Why: "an ExecCall whose program is built at run time"})
			continue
		}
		list := args[1]
		if len(list) == 1 && list[0].kind == 'i' {
			list = lets[list[0].text]
		} else if len(list) > 0 && list[0].text == "&" {
			list = list[1:]
		}
		cmds, _ := starExamples(append([]jsTok{{kind: 'p', text: "["}}, append(list, jsTok{kind: 'p', text: "]"})...), starString(args[0]))
		v := execVerdict(toks, end)
		if len(cmds) != 1 || v == "" {
			c.Skipped = append(c.Skipped, Skipped{Source: fmt.Sprintf("%s:%d", f, toks[i].line), Why: "an ExecCall whose arguments or expected result could not be read"})
			continue
		}
		c.Cases = append(c.Cases, Case{Command: cmds[0], Verdict: v, Source: fmt.Sprintf("%s:%d", f, toks[i].line)})
	}
	return nil
}

// execVerdict reads the result the next assert_eq! after k expects.
func execVerdict(toks []jsTok, k int) string {
	for j := k; j+4 < len(toks); j++ {
		if toks[j].text == "ExecCall" {
			return ""
		}
		if toks[j].text != "assert_eq" || toks[j+1].text != "!" || toks[j+2].text != "(" {
			continue
		}
		switch toks[j+3].text {
		case "Err":
			return Ask
		case "Ok":
			for _, t := range toks[j+4 : min(j+12, len(toks))] {
				switch t.text {
				case "Match":
					return Allow
				case "Forbidden":
					return Block
				}
			}
		}
		return ""
	}
	return ""
}
