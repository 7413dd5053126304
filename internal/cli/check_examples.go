package cli

import (
	"fmt"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/lint"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// exampleJSON is the stable --json shape of one verified example.
type exampleJSON struct {
	Loop   string `json:"loop"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Call   string `json:"call"`
	Expect string `json:"expect"`
	Got    string `json:"got"`
	Rule   string `json:"rule"`
	Holds  bool   `json:"holds"`
}

// examplesJSON is the stable --json shape of check --examples.
type examplesJSON struct {
	Loops    int           `json:"loops"`
	Total    int           `json:"total"`
	Failed   int           `json:"failed"`
	Examples []exampleJSON `json:"examples"`
}

// exampleGate decides examples as the hook does, in the project that
// holds the loop (docs/typed-entries.md#examples).
func exampleGate(app *App) func(l *loops.Loop, e loops.Example) (loops.Verdict, string) {
	root := app.Cwd
	if p, err := app.Project(); err == nil {
		root = p.Root
	}
	env := gateEnvFor(app)
	return func(l *loops.Loop, e loops.Example) (loops.Verdict, string) {
		x := gate.ExplainExample(env, l, e, root)
		return x.Verdict, x.Rule
	}
}

// lintOptions is lint's options for a command run by a person (lint,
// doctor): the examples decide through the hook's own gate, as
// `check --examples` has them.
func lintOptions(app *App) lint.Options {
	gate := exampleGate(app)
	return lint.Options{
		Examples: func(f *lint.File, e loops.Example) (loops.Verdict, string) { return gate(f.Loop, e) },
		Home:     app.Getenv("HOME"),
	}
}

func runCheckExamples(app *App, o checkOptions, names []string) error {
	p, err := app.Project()
	if err != nil {
		return err
	}
	var ls []*loops.Loop
	if len(names) == 0 {
		all, errs := loops.LoadDir(p.LoopsDir())
		if len(errs) > 0 {
			return &ExitError{Code: ExitError1, Err: errs[0], Hint: "fix the loop (see `gitwarrant lint`), then run check --examples again"}
		}
		ls = all
	} else {
		for _, n := range names {
			l, err := loadLoop(app, p, n)
			if err != nil {
				return err
			}
			ls = append(ls, l)
		}
	}
	gate := exampleGate(app)
	var rows []exampleJSON
	failed, total := 0, 0
	for _, l := range ls {
		for _, e := range l.Examples {
			got, rule := gate(l, e)
			total++
			row := exampleJSON{Loop: l.Name, File: l.Path, Line: e.Line, Call: e.Text, Expect: string(e.Expect), Got: string(got), Rule: rule, Holds: got == e.Expect}
			if !row.Holds {
				failed++
			}
			rows = append(rows, row)
		}
	}
	if o.json {
		if rows == nil {
			rows = []exampleJSON{}
		}
		if err := writeJSON(app.IO.Out, examplesJSON{Loops: len(ls), Total: total, Failed: failed, Examples: rows}); err != nil {
			return err
		}
	} else {
		st := app.IO.Style()
		for _, r := range rows {
			if r.Holds && o.quiet {
				continue
			}
			mark := st.Green("ok  ")
			if !r.Holds {
				mark = st.Red("FAIL")
			}
			fmt.Fprintf(app.IO.Out, "%s %s:%d %s: %s gets %s (%s)\n", mark, r.File, r.Line, r.Expect, r.Call, r.Got, r.Rule)
		}
		fmt.Fprintf(app.IO.Out, "%d example(s) in %d loop(s), %d fail\n", total, len(ls), failed)
	}
	if failed > 0 {
		return Silent(1)
	}
	return nil
}
