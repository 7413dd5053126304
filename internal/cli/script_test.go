package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/mcpcmd"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run this test binary as the real `gitwarrant`
// process, so scripts drive the binary end to end. The Go tests that walk
// the command tree run the binary built from cmd/gitwarrant
// (testkit.Binary), removed when the tests end.
func TestMain(m *testing.M) {
	testscript.Main(cleanupAfter{m}, map[string]func(){
		"gitwarrant": func() {
			os.Exit(cli.Main(context.Background(), cli.NewSystemApp(), os.Args[1:]))
		},
		// `gitwarrant serve` runs it, beside gitwarrant as install puts it.
		"gitwarrant-mcp": func() {
			os.Exit(cli.ServerMain(context.Background(), cli.NewSystemApp(), os.Args[1:], mcpcmd.Commands()...))
		},
	})
}

// cleanupAfter removes testkit's binary once the tests have run
// (testscript.Main exits the process itself).
type cleanupAfter struct{ m *testing.M }

func (c cleanupAfter) Run() int {
	defer testkit.Cleanup()
	return c.m.Run()
}

// TestScripts runs every testdata/script/*.txtar against real git repos.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		RequireExplicitExec: false,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("GIT_AUTHOR_NAME", "Test Human")
			env.Setenv("GIT_AUTHOR_EMAIL", "human@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "Test Human")
			env.Setenv("GIT_COMMITTER_EMAIL", "human@example.com")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("NO_COLOR", "1")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "git", "ssh-keygen", "node":
				_, err := exec.LookPath(cond)
				return err == nil, nil
			case "redteam-open":
				// the red-team cases still open fail until fixed: run them
				// with GITWARRANT_REDTEAM_OPEN=1
				return os.Getenv("GITWARRANT_REDTEAM_OPEN") != "", nil
			}
			return false, errors.New("unknown condition " + cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status":     cmdStatus,
			"cpdocket":   cmdCpDocket,
			"claudehook": cmdClaudeHook,
			"agenthook":  cmdAgentHook,
		},
	})
}

// cmdCpDocket copies docket's shipped loops (testdata/docket) into a
// folder of the script's work directory:
//
//	cpdocket .gitwarrant/loops
func cmdCpDocket(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cpdocket <dir>")
	}
	paths, err := filepath.Glob("../../testdata/docket/*.loop.md")
	if err != nil || len(paths) != 9 {
		ts.Fatalf("cpdocket: want docket's 9 loops, found %d (%v)", len(paths), err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		ts.Check(err)
		ts.Check(os.WriteFile(filepath.Join(ts.MkAbs(args[0]), filepath.Base(p)), data, 0o644))
	}
}

// cmdClaudeHook runs the gitwarrant hook command .claude/settings.json
// holds for a Claude Code event, through sh as Claude Code runs it, with
// the stdin the script set — the wiring exactly as install wrote it:
//
//	stdin prompt.json
//	claudehook UserPromptSubmit
func cmdClaudeHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: claudehook <event>")
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type, Command string
			}
		}
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(".claude/settings.json")), &s))
	for _, g := range s.Hooks[args[0]] {
		for _, h := range g.Hooks {
			if h.Type == "command" && strings.Contains(h.Command, "gitwarrant hook claude") {
				ts.Check(ts.Exec("sh", "-c", h.Command))
				return
			}
		}
	}
	ts.Fatalf("claudehook: no gitwarrant %s hook in .claude/settings.json", args[0])
}

// cmdAgentHook runs the gitwarrant command install wrote for a client's
// event, as the client runs it (through the shell), and asserts its exit
// status:
//
//	agenthook 2 codex PreToolUse
func cmdAgentHook(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: agenthook <status> <client> <event>")
	}
	var s struct {
		Hooks map[string][]struct {
			Command string
			Hooks   []struct{ Command string }
		}
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(install.AgentFile(args[1]))), &s))
	for _, g := range s.Hooks[args[2]] {
		cmds := []string{g.Command}
		for _, h := range g.Hooks {
			cmds = append(cmds, h.Command)
		}
		for _, c := range cmds {
			if strings.Contains(c, "gitwarrant hook "+args[1]) {
				cmdStatus(ts, false, []string{args[0], "sh", "-c", c})
				return
			}
		}
	}
	ts.Fatalf("agenthook: no gitwarrant %s hook in %s", args[2], install.AgentFile(args[1]))
}

// cmdStatus runs a program and asserts its exact exit status:
//
//	status 2 gitwarrant check appeal send "appeal email to the insurer"
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status <code> <program> [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: bad exit code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("status: running %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
