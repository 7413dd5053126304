package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/parsecache"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// HookDeadline is how long `hook claude` may take before it answers ask on
// its own. Claude Code lets a timed-out hook's call through, so the hook
// must always answer first (hook.SettingsTimeout is well above this).
const HookDeadline = 10 * time.Second

type hookClaudeOptions struct {
	gate.Options
	post  bool
	event string
}

func newHookClaudeCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "claude [--loop L | --default-loop L] [--strict] [--event E] [--no-record]",
		Short: "Claude Code hook: answer a tool call with allow, ask or deny",
		Long: `Read Claude Code's PreToolUse payload on stdin and answer with its decision
JSON. The call is read as what it does (docs/threat-model.md): a Bash
command is parsed as shell — every clause, wrapper, sh -c string and
substitution — with git understood and every path it writes resolved
through symlinks. Loops' ask and never entries, in words, are screened
against the call's canonical form; only a typed entry (Bash(…), Edit(…), …)
allows a tool call, so anything a loop does not stop and no typed entry
allows asks. Without --loop, every loop's never entries and every abstract
loop's ask and never entries screen the call first; then it is routed like
` + "`gitwarrant match`" + `, and a call no loop claims stays silent (Claude Code's own
permissions decide) only when nothing matched and nothing in it was
unreadable. --strict turns "no loop covers this" into ask. Once pinned
(--loop or --strict), every failure — a bad loop name, unreadable input, a
missing project, a loop that does not parse, an unrecorded check — answers
ask, never allow.

Built in, whatever the loops say: a write by any route into the project
directory, Git's directory and hooks (wherever core.hooksPath points), the
Claude Code settings, .mcp.json, a git config or a hook manager's config;
git config of hook or code-executing keys; environment that switches hooks
off; rewriting refs/gitwarrant; uninstalling a hook manager; and
gitwarrant's human-only commands — all denied: a human must do them.

Sessions (docs/sessions.md): with --event prompt, read a UserPromptSubmit
payload, route the person's prompt like ` + "`gitwarrant match`" + ` ("use loop
release" names one outright) and pin the session to that loop; a prompt that
routes nowhere keeps the pin. The answer tells the agent which loop it works
under. A PreToolUse call is then decided under the wiring's --loop, else the
session's pin, else --default-loop; --event session-end forgets the pin.

With --post (--event post), read a PostToolUse payload and note on the record that a checked
call ran, so an ask can be told apart as approved (it ran) or refused.

` + "`gitwarrant serve`" + ` gives the same answers to Claude Code's http hook, POST
/hooks/claude, without a process per call (install --hook http;
docs/hook-protocol.md#the-http-hook).

Exit status: always 0 — the answer is the JSON on stdout (Claude Code treats
other statuses as "let it through"); a prompt is never blocked.`,
		DisableFlagParsing: true, // a flag error must still answer ask, not exit 1
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHookClaude(app, cmd, args)
		},
	}
	hookClaudeFlags(&hookClaudeOptions{}, cmd.Flags())
	return cmd
}

func hookClaudeFlags(o *hookClaudeOptions, fs *pflag.FlagSet) {
	hookWiringFlags(&o.Options, fs)
	fs.StringVar(&o.event, "event", "pre", "the hook event: pre (PreToolUse), post (PostToolUse), prompt (UserPromptSubmit) or session-end (SessionEnd)")
	fs.BoolVar(&o.post, "post", false, "PostToolUse: record that a checked call ran (the same as --event post)")
}

// hookWiringFlags are the flags every agent hook takes: the wiring install
// writes (docs/sessions.md) and --no-record.
func hookWiringFlags(o *gate.Options, fs *pflag.FlagSet) {
	fs.StringVar(&o.Loop, "loop", "", "check every call against this loop, whatever the session's prompt routes to")
	fs.StringVar(&o.DefaultLoop, "default-loop", "", "check the calls of a session no prompt has pinned against this loop")
	fs.BoolVar(&o.Strict, "strict", false, "ask when no loop covers a call")
	fs.BoolVar(&o.NoRecord, "no-record", false, "do not append checks to the record")
}

func runHookClaude(app *App, cmd *cobra.Command, args []string) error {
	var o hookClaudeOptions
	fs := pflag.NewFlagSet("hook claude", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	hookClaudeFlags(&o, fs)
	fs.StringVar(&o.Dir, "dir", app.DirFlag, "")
	help := fs.BoolP("help", "h", false, "")
	parseErr := fs.Parse(args)
	o.LoopSet = fs.Changed("loop")
	o.Via = "hook"
	if *help {
		if cmd == nil { // the fast path in Main: find the command in the tree
			root := NewRootCmd(app)
			if cmd, _, err := root.Find([]string{"hook", "claude"}); err == nil {
				return cmd.Help()
			}
			return root.Help()
		}
		return cmd.Help()
	}
	data, readErr := readCapped(app.IO.In, hook.MaxInput)
	env := GateEnv(app, app.Cwd, app.IO.Err)
	env.ParseStore = parsecache.Open
	if o.post {
		o.event = "post"
	}
	c := ClaudeHookCall{Options: o.Options, Event: o.event, Data: data, ReadErr: readErr, WiringErr: parseErr,
		Fix: "fix the hook command in .claude/settings.json (gitwarrant hook claude [--loop L | --default-loop L] [--strict])"}
	if c.WiringErr == nil && fs.NArg() > 0 && (c.Event == "pre" || c.Event == "") {
		c.WiringErr = argError(nil, fs.Args())
	}
	_, _ = app.IO.Out.Write(AnswerClaudeHook(env, c))
	return nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func argError(err error, rest []string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("unexpected argument %q", strings.Join(rest, " "))
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
