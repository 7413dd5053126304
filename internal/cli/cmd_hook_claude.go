package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// hookDeadline is how long `hook claude` may take before it answers ask on
// its own. Claude Code lets a timed-out hook's call through, so the hook
// must always answer first (hook.SettingsTimeout is well above this).
const hookDeadline = 10 * time.Second

type hookClaudeOptions struct {
	loop     string
	loopSet  bool // --loop was given, even as --loop "" (an unset variable)
	strict   bool
	post     bool
	noRecord bool
	dir      string
}

// pinned reports a gate the user asked for: every failure then asks.
// `--loop "$GW_LOOP"` with the variable unset still pins: the user asked
// for a gate, so an empty name must fail closed, not fall back to routing.
func (o hookClaudeOptions) pinned() bool { return o.loopSet || o.loop != "" || o.strict }

// hookAnswer is what the hook tells Claude Code: nothing (silent
// pass-through: Claude Code's own permissions decide) or a decision.
type hookAnswer struct {
	silent  bool
	verdict loops.Verdict
	reason  string
}

func askAnswer(format string, args ...any) hookAnswer {
	return hookAnswer{verdict: loops.Ask, reason: hook.Reason("", "failed closed", fmt.Sprintf(format, args...))}
}

func newHookClaudeCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "claude [--loop L] [--strict] [--post] [--no-record]",
		Short: "Claude Code hook: answer a tool call with allow, ask or deny",
		Long: `Read Claude Code's PreToolUse payload on stdin and answer with its decision
JSON. Read-shaped tools check as read, file-writing tools as change, and
everything else (Bash, MCP tools, unknown tools) as send; the target is the
human part of the call. Without --loop the call is routed like ` + "`gitwarrant match`" + `;
when no loop covers it the hook prints nothing and Claude Code's own
permissions decide. --strict turns "no loop covers this" into ask. Once
pinned (--loop or --strict), every failure — a bad loop name, unreadable
input, a missing project, a loop that does not parse, an unrecorded check —
answers ask, never allow.

Built in, whatever the loops say: writes to the project directory, Git's
directory and hooks, .claude/settings*.json and .mcp.json, and shell commands
that run gitwarrant's human-only commands or touch refs/gitwarrant, are
denied: a human must do them.

With --post, read a PostToolUse payload and note on the record that a checked
call ran, so an ask can be told apart as approved (it ran) or refused.

Exit status: always 0 — the answer is the JSON on stdout (Claude Code treats
other statuses as "let it through").`,
		DisableFlagParsing: true, // a flag error must still answer ask, not exit 1
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHookClaude(app, cmd, args)
		},
	}
	hookClaudeFlags(&hookClaudeOptions{}, cmd.Flags())
	return cmd
}

func hookClaudeFlags(o *hookClaudeOptions, fs *pflag.FlagSet) {
	fs.StringVar(&o.loop, "loop", "", "check every call against this loop")
	fs.BoolVar(&o.strict, "strict", false, "ask when no loop covers a call")
	fs.BoolVar(&o.post, "post", false, "PostToolUse: record that a checked call ran")
	fs.BoolVar(&o.noRecord, "no-record", false, "do not append checks to the record")
}

func runHookClaude(app *App, cmd *cobra.Command, args []string) error {
	var o hookClaudeOptions
	fs := pflag.NewFlagSet("hook claude", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	hookClaudeFlags(&o, fs)
	fs.StringVar(&o.dir, "dir", app.DirFlag, "")
	help := fs.BoolP("help", "h", false, "")
	parseErr := fs.Parse(args)
	o.loopSet = fs.Changed("loop")
	if *help {
		return cmd.Help()
	}
	data, readErr := readCapped(app.IO.In, hook.MaxInput)
	if o.post {
		if parseErr == nil {
			runHookPost(app, o, data, readErr)
		}
		return nil // PostToolUse never blocks: the tool already ran
	}
	var a hookAnswer
	if parseErr != nil || fs.NArg() > 0 {
		a = askAnswer("this hook's command line is wrong (%v): fix the hook command in .claude/settings.json (gitwarrant hook claude [--loop L] [--strict])", argError(parseErr, fs.Args()))
	} else {
		a = answerWithin(hookDeadline, func() hookAnswer { return evaluateHook(app, o, data, readErr) })
	}
	if !a.silent {
		_, _ = app.IO.Out.Write(hook.Decision(string(a.verdict), a.reason))
	}
	return nil
}

func argError(err error, rest []string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("unexpected argument %q", strings.Join(rest, " "))
}

// answerWithin runs f, answering ask if it panics or takes longer than d:
// a gate that hangs or crashes must not become a gate that lets calls
// through (docs/hook-protocol.md#claude-code-hooks: a timed-out hook does not block).
func answerWithin(d time.Duration, f func() hookAnswer) hookAnswer {
	ch := make(chan hookAnswer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- askAnswer("internal error: %v — please report it at https://github.com/gitwarrant/gitwarrant/issues", r)
			}
		}()
		ch <- f()
	}()
	select {
	case a := <-ch:
		return a
	case <-time.After(d):
		return askAnswer("the check took longer than %s (is the record locked by a stuck process?)", d)
	}
}

// readCapped reads at most max bytes; more is an error, never a silent cut.
func readCapped(r io.Reader, max int) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no stdin")
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %v", err)
	}
	if len(data) > max {
		return nil, hook.ErrTooLarge
	}
	return data, nil
}
