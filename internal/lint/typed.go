package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/shell"
	"github.com/gitwarrant/gitwarrant/internal/typed"
)

// Checks of typed entries and examples (docs/typed-entries.md).
func init() {
	Register(Check{Name: "catch-all", Doc: "a typed allow entry that names every call of its kind (Bash(*), Bash(sh *), Edit(//**), mcp__*)", Run: catchAlls})
	Register(Check{Name: "reads-through", Doc: "a note on an allow entry that stops at make or at a runner (Bash(make *), Bash(uv *), Bash(python -m *), Bash(npx *)): what it will and will not allow", Run: readsThrough})
	Register(Check{Name: "never-allows", Doc: "a typed allow entry whose every command runs code the gate cannot read (go generate, vim -c): the hook asks for each", Run: neverAllows})
	Register(Check{Name: "misfiled", Doc: "a typed entry under a list narrower than what it names (Edit under read; Bash(gh api *) under read, which reaches merges)", Run: misfiled})
	Register(Check{Name: "untyped-allow", Doc: "an allow list with natural-language entries only: the hook asks for every call it means", Run: untypedAllow})
	Register(Check{Name: "examples", Doc: "an `examples:` call the warrant does not decide as stated", Run: examples})
}

// ExampleVerdict decides one example of a loop file: the verdict and the
// rule that gave it.
type ExampleVerdict func(f *File, e loops.Example) (loops.Verdict, string)

// example decides e with o.Examples, or, when the caller gave none, with
// the typed entries alone (lint is a leaf: the gate's own screens, such as
// self-protection, come only with the caller's decider).
func (o Options) example(f *File, e loops.Example) (loops.Verdict, string) {
	if o.Examples != nil {
		return o.Examples(f, e)
	}
	root := repoRoot(f.Path)
	d := typed.DecideExample(f.Loop, e, typed.Env{Root: root, Cwd: root, Home: o.Home})
	return d.Verdict, d.Rule
}

// repoRoot is the folder holding the loop's project directory
// (<root>/.gitwarrant/loops/x.loop.md), else the loop's own folder.
func repoRoot(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Dir(path)
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == "loops" {
		if p := filepath.Dir(dir); filepath.Base(p) == ".gitwarrant" || filepath.Base(p) == ".docket" {
			return filepath.Dir(p)
		}
	}
	return dir
}

func typedOf(it loops.Item) *loops.Typed {
	t, err := loops.ParseTyped(it.Text)
	if err != nil {
		return nil
	}
	return t
}

// typedAllows calls fn for each typed entry of each allow list, in file
// order; fn returns the findings of one entry.
func typedAllows(files []*File, fn func(f *File, list string, it loops.Item, t *loops.Typed) []Finding) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil {
			continue
		}
		for _, list := range loops.AllowLists {
			for _, it := range f.Raw.Warrant.List(list) {
				if t := typedOf(it); t != nil {
					out = append(out, fn(f, list, it, t)...)
				}
			}
		}
	}
	return out
}

func catchAlls(files []*File, _ Options) []Finding {
	return typedAllows(files, func(f *File, list string, it loops.Item, t *loops.Typed) []Finding {
		why := t.CatchAll()
		if why == "" {
			return nil
		}
		return []Finding{{File: f.Path, Line: it.Line, Severity: Error,
			Msg:  fmt.Sprintf("%s: %q is a catch-all (%s); it allows nothing", list, it.Text, why),
			Hint: "name the commands, folders or tools the task needs, e.g. Bash(go test *) or Edit(src/**)"}}
	})
}

// readsThrough explains an entry the gate reads through rather than
// refusing it as a catch-all (docs/typed-entries.md#make, #runners).
func readsThrough(files []*File, _ Options) []Finding {
	return typedAllows(files, func(f *File, list string, it loops.Item, t *loops.Typed) []Finding {
		why := t.ReadsThrough()
		if why == "" {
			return nil
		}
		return []Finding{{File: f.Path, Line: it.Line, Severity: Note, Msg: fmt.Sprintf("%s: %q: %s", list, it.Text, why)}}
	})
}

// neverAllows finds allow entries the gate can never use: every command
// they name runs code it cannot read, and such a call asks whatever the
// warrant says (docs/typed-entries.md#entries-that-never-allow). A
// catch-all is reported as one instead.
func neverAllows(files []*File, _ Options) []Finding {
	return typedAllows(files, func(f *File, list string, it loops.Item, t *loops.Typed) []Finding {
		if t.CatchAll() != "" {
			return nil
		}
		why := shell.CodeWhateverFollows(t.Words())
		if why == "" {
			return nil
		}
		return []Finding{{File: f.Path, Line: it.Line, Severity: Warning,
			Msg:  fmt.Sprintf("%s: %q never allows: %s, so the hook asks for every such call", list, it.Text, why),
			Hint: "remove it, or move it under ask to say that a person approves each"}}
	})
}

// misfiled warns about a typed entry under a list narrower than what it
// names: an Edit outside change, and a Bash entry whose words reach a
// wider kind than its list (docs/typed-entries.md#kinds) — the hook then
// allows only the calls of the list's kind and asks for the rest.
func misfiled(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil {
			continue
		}
		root := repoRoot(f.Path)
		env := typed.Env{Root: root, Cwd: root, Home: os.Getenv("HOME")}
		for _, list := range []string{"read", "draft", "change"} {
			for _, it := range f.Raw.Warrant.List(list) {
				if t := typedOf(it); t != nil {
					out = append(out, misfiledEntry(f.Path, list, it, t, env)...)
				}
			}
		}
	}
	return out
}

func misfiledEntry(path, list string, it loops.Item, t *loops.Typed, env typed.Env) []Finding {
	switch {
	case t.Tool == loops.ToolEdit && list == "read":
		return []Finding{{File: path, Line: it.Line, Severity: Warning,
			Msg:  fmt.Sprintf("%s: %q edits files, which is change work: under read it allows none of the writes it names", list, it.Text),
			Hint: "move it to change"}}
	case t.Tool == loops.ToolBash:
		k := typed.Reach(t, env)
		if typed.ListAllows(list, k.Verb) {
			return nil
		}
		what := k.Why
		if what == "" {
			what = "is " + string(k.Verb) + " work"
		}
		return []Finding{{File: path, Line: it.Line, Severity: Warning,
			Msg: fmt.Sprintf("%s: %q reaches %s work (`%s` %s): under %s the hook allows only its %s calls and asks for the rest",
				list, it.Text, k.Verb, k.Cmd, what, list, list),
			Hint: fmt.Sprintf("move it to %s if the loop may do that too, or name each narrower command it needs as an entry of its own (Bash(%s … *))",
				k.Verb, strings.Join(t.Words(), " "))}}
	}
	return nil
}

// suggestions map words of a natural-language allow entry to typed entries
// that say it the way the hook reads a call.
var suggestions = []struct{ word, list, entry string }{
	{"push", "send", "Bash(git push origin <branch-prefix>/*)"},
	{"pull request", "send", "Bash(gh pr create --draft *)"},
	{"test", "change", "Edit(test/**)"},
	{"doc", "change", "Edit(docs/**)"},
	{"readme", "change", "Edit(README.md)"},
	{"branch", "change", "Bash(git switch *)"},
	{"commit", "change", "Bash(git commit *)"},
	{"source", "change", "Edit(src/**)"},
	{"code", "change", "Edit(src/**)"},
	{"history", "read", "Bash(git log *)"},
	{"issue", "read", "Bash(gh issue view *)"},
	{"log", "read", "Bash(git log *)"},
	{"", "read", "Read(**)"},
}

func suggest(list, text string) string {
	low := strings.ToLower(text)
	for _, s := range suggestions {
		if s.list == list && strings.Contains(low, s.word) {
			return s.entry
		}
	}
	for _, s := range suggestions {
		if s.word != "" && strings.Contains(low, s.word) {
			return s.entry
		}
	}
	return "Bash(<command> *) or Edit(<folder>/**)"
}

func untypedAllow(files []*File, _ Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil {
			continue
		}
		for _, list := range []string{"read", "change", "send"} {
			items := f.Raw.Warrant.List(list)
			hasTyped := false
			for _, it := range items {
				hasTyped = hasTyped || loops.LooksTyped(it.Text)
			}
			if hasTyped {
				continue
			}
			for _, it := range items {
				out = append(out, Finding{File: f.Path, Line: it.Line, Severity: Warning,
					Msg:  fmt.Sprintf("%s: %q is natural language: `check` still reads it, but the hook asks for every tool call it means", list, it.Text),
					Hint: fmt.Sprintf("add a typed entry for what it means, e.g. %s (see docs/typed-entries.md#migrating-a-loop)", suggest(list, it.Text))})
			}
		}
	}
	return out
}

func examples(files []*File, o Options) []Finding {
	var out []Finding
	for _, f := range files {
		if f.Raw == nil || f.Loop == nil {
			continue
		}
		for _, e := range f.Raw.Examples {
			got, rule := o.example(f, e)
			if got == e.Expect {
				continue
			}
			out = append(out, Finding{File: f.Path, Line: e.Line, Severity: Error,
				Msg:  fmt.Sprintf("example %s is listed under %s but gets %s (%s)", e.Text, e.Expect, got, rule),
				Hint: "fix the warrant so the example holds, or move the example; `gitwarrant explain` shows what decided each part"})
		}
	}
	return out
}
