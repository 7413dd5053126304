package loops

import (
	"path"
	"strings"
	"sync"
)

// Maven and Gradle commands (docs/typed-entries.md#build-tools): a command
// line names goals (tasks) and options in any order. An entry's final ` *`
// takes further options, never a further goal: `Bash(mvn test *)` does not
// allow `mvn test deploy`. A command with several goals is allowed when
// each goal, with the command's options, is allowed on its own.

// buildTool is what the matcher knows of one build tool's command line.
type buildTool struct {
	// valued are the options whose value is the next word.
	valued map[string]bool
}

var (
	maven = sync.OnceValue(func() *buildTool {
		return &buildTool{valued: set("-b", "--builder", "--color", "-D", "--define", "-emp", "--encrypt-master-password",
			"-ep", "--encrypt-password", "-f", "--file", "-gs", "--global-settings", "-gt", "--global-toolchains", "-l",
			"--log-file", "-P", "--activate-profiles", "-pl", "--projects", "-rf", "--resume-from", "-s", "--settings",
			"-t", "--toolchains", "-T", "--threads")}
	})
	gradle = sync.OnceValue(func() *buildTool {
		return &buildTool{valued: set("-b", "--build-file", "-c", "--settings-file", "--configuration-cache-problems",
			"-D", "--system-prop", "-F", "--dependency-verification", "-g", "--gradle-user-home", "-I", "--init-script",
			"--include-build", "-M", "--write-verification-metadata", "--max-workers", "-p", "--project-dir", "--priority",
			"--project-cache-dir", "-P", "--project-prop", "-x", "--exclude-task", "--warning-mode", "--console",
			"--update-locks", "--tests", "--args")}
	})
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// buildToolOf returns the build tool argv runs, or nil.
func buildToolOf(argv []Arg) *buildTool {
	if len(argv) == 0 {
		return nil
	}
	switch path.Base(argv[0].Text) {
	case "mvn", "mvnw":
		return maven()
	case "gradle", "gradlew":
		return gradle()
	}
	return nil
}

// isGoal reports whether argv[i] is a goal or task: not an option, and
// not the value of the option before it.
func (b *buildTool) isGoal(argv []Arg, i int) bool {
	return i > 0 && !strings.HasPrefix(argv[i].Text, "-") && !(i > 1 && b.valued[argv[i-1].Text])
}

// goalsApart splits a build command into its goals and the rest of its
// words (options and their values), in order; nil unless it names at
// least two goals.
func goalsApart(argv []Arg) (goals, opts []Arg) {
	b := buildToolOf(argv)
	if b == nil {
		return nil, nil
	}
	for i := 1; i < len(argv); i++ {
		if b.isGoal(argv, i) {
			goals = append(goals, argv[i])
		} else {
			opts = append(opts, argv[i])
		}
	}
	if len(goals) < 2 {
		return nil, nil
	}
	return goals, opts
}

// allowingEachGoal returns the entry allowing the first goal of a build
// command with several goals when every goal, given the command's options,
// is allowed by an entry (`mvn clean test -q` by `Bash(mvn clean *)` and
// `Bash(mvn test *)`); otherwise nil.
func (tw *TypedWarrant) allowingEachGoal(c Call) *Typed {
	goals, opts := goalsApart(c.Cmd.Argv)
	var first *Typed
	for _, g := range goals {
		one := c
		one.Cmd.Argv = append([]Arg{c.Cmd.Argv[0], g}, opts...)
		e := tw.allowingAsWritten(one)
		if e == nil {
			return nil
		}
		if first == nil {
			first = e
		}
	}
	return first
}

// goalsFirst spells a build command with its goals first and its options
// (with their values) after them, in order: Maven and Gradle read options
// anywhere on the line, so `mvn -Pdev clean verify` is `mvn clean verify
// -Pdev`, which an entry `Bash(mvn clean verify *)` names; the moved
// options then face restDanger like any further argument. nil when the
// command is not a build command, names no goal, or is already so spelt.
func goalsFirst(argv []Arg) []Arg {
	b := buildToolOf(argv)
	if b == nil {
		return nil
	}
	out := make([]Arg, 1, len(argv))
	out[0] = argv[0]
	var opts []Arg
	for i := 1; i < len(argv); i++ {
		if b.isGoal(argv, i) {
			out = append(out, argv[i])
		} else {
			opts = append(opts, argv[i])
		}
	}
	if len(out) == 1 || len(opts) == 0 {
		return nil
	}
	out = append(out, opts...)
	for i := range out {
		if out[i] != argv[i] {
			return out
		}
	}
	return nil
}
