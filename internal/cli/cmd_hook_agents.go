package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/killtimer"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/parsecache"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// hookAgentOptions are the flags of `hook codex|gemini|cursor`: those of
// `hook claude`, with --event naming the client's events.
type hookAgentOptions struct {
	gate.Options
	event     string
	stopAfter int // seconds; 0: no kill timer
}

// hookAgentHelp says, per client, what it runs and how a block reaches it
// (docs/agents.md).
var hookAgentHelp = map[string]string{
	hook.ClientCodex: `Codex CLI runs it as a PreToolUse hook (.codex/hooks.json) before each
shell command, apply_patch and MCP tool call, and as a UserPromptSubmit hook.
Codex reads only a block from a hook: an allow prints nothing and leaves the
call to Codex's own approvals; ask and deny exit 2 with the reason on stderr
(Codex runs a call whose hook asks).`,
	hook.ClientGemini: `Gemini CLI runs it as a BeforeTool hook (.gemini/settings.json) before each
tool call, and as a BeforeAgent hook for each prompt. It answers with a JSON
decision; ask and deny also exit 2 with the reason on stderr (Gemini CLI
takes any other non-zero status as a warning and runs the call, and its
"ask" stalls a non-interactive session, so an ask blocks).`,
	hook.ClientCursor: `Cursor runs it (.cursor/hooks.json) before each shell command
(beforeShellExecution), file read (beforeReadFile), MCP call
(beforeMCPExecution) and other tool (preToolUse), and for each prompt
(beforeSubmitPrompt). It answers {"permission": …}; a deny also exits 2.`,
}

func newHookAgentCmd(client string) func(*App) *cobra.Command {
	return func(app *App) *cobra.Command {
		cmd := &cobra.Command{
			Use:   client + " [--loop L | --default-loop L] [--strict] [--event E] [--no-record]",
			Short: map[string]string{hook.ClientCodex: "Codex CLI", hook.ClientGemini: "Gemini CLI", hook.ClientCursor: "Cursor"}[client] + " hook: answer a tool call with allow, ask or deny",
			Long: `Read the client's hook payload on stdin, decide each tool call exactly as
` + "`gitwarrant hook claude`" + ` does (the same gate, loops, self-protection and
record; the entry's via names the client), and answer in the client's own
protocol.

` + hookAgentHelp[client] + `

The event is read from the payload's hook_event_name; --event pre or prompt
names it instead. A prompt event routes the person's prompt and pins the
session to a loop (docs/sessions.md), as ` + "`hook claude --event prompt`" + ` does.

Exit status: 0 with the answer on stdout, or 2 with the reason on stderr
when the call is blocked — also when the hook itself fails (a wrong flag, an
unreadable payload under a pinned gate, an internal error): no failure of
gitwarrant lets a call through. With --stop-after, exit 3 at once, the
payload unread, where no kill timer can be armed (off Linux): the command
install writes then runs the hook again under its shell watchdog.`,
			DisableFlagParsing: true, // a flag error must still block, not exit 1
			RunE: func(cmd *cobra.Command, args []string) error {
				return runHookAgent(app, client, cmd, args)
			},
		}
		hookAgentFlags(&hookAgentOptions{}, cmd.Flags())
		return cmd
	}
}

// maxStopAfter bounds --stop-after: a day, far above any client's timeout,
// and well inside time.Duration.
const maxStopAfter = 24 * 60 * 60

func hookAgentFlags(o *hookAgentOptions, fs *pflag.FlagSet) {
	hookWiringFlags(&o.Options, fs)
	fs.StringVar(&o.event, "event", "", "the hook event: pre (a tool call) or prompt; empty reads it from the payload")
	fs.IntVar(&o.stopAfter, "stop-after", 0, "arm a kernel timer that kills this process (SIGKILL) after this many seconds, "+
		"even if it is stopped; exit 3 at once, before reading the payload, where none can be armed (docs/agents.md#timeouts)")
}

// runHookAgent answers one hook of client. Whatever happens — a panic
// included — it writes one answer the client reads as intended, and a
// block always exits 2.
func runHookAgent(app *App, client string, cmd *cobra.Command, args []string) (err error) {
	var reply hook.Reply
	defer func() {
		if r := recover(); r != nil {
			reply = hook.RenderPre(client, "", "deny", false, hook.Reason("", "failed closed", fmt.Sprintf("internal error: %v — please report it at https://github.com/gitwarrant/gitwarrant/issues", r)))
		}
		if len(reply.Stdout) > 0 {
			_, _ = app.IO.Out.Write(reply.Stdout)
		}
		if reply.Stderr != "" {
			_, _ = io.WriteString(app.IO.Err, reply.Stderr)
		}
		if reply.Exit != 0 && err == nil {
			err = Silent(reply.Exit)
		}
	}()
	var o hookAgentOptions
	fs := pflag.NewFlagSet("hook "+client, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	hookAgentFlags(&o, fs)
	fs.StringVar(&o.Dir, "dir", app.DirFlag, "")
	help := fs.BoolP("help", "h", false, "")
	parseErr := fs.Parse(args)
	o.LoopSet = fs.Changed("loop")
	o.Via = "hook " + client
	if *help {
		if cmd == nil { // the fast path in Main
			root := NewRootCmd(app)
			if c, _, ferr := root.Find([]string{"hook", client}); ferr == nil {
				return c.Help()
			}
			return root.Help()
		}
		return cmd.Help()
	}
	if fs.Changed("stop-after") {
		// Armed before the payload is read. Exit 3 (and nothing else exits
		// 3) tells the command install writes that no timer was armed: it
		// then runs this hook again under its shell watchdog, with the
		// payload still unread on stdin.
		if o.stopAfter <= 0 || o.stopAfter > maxStopAfter {
			parseErr = firstErr(parseErr, fmt.Errorf("--stop-after %d: the deadline must be from 1 to %d seconds", o.stopAfter, maxStopAfter))
		} else if killtimer.Arm(time.Duration(o.stopAfter)*time.Second) != nil {
			return Silent(hook.AgentNoTimer)
		}
	}
	data, readErr := readCapped(app.IO.In, hook.MaxInput)
	reply = decideAgent(app, client, o, data, firstErr(readErr, argErrOrNil(parseErr, fs.Args())))
	return nil
}

func argErrOrNil(err error, rest []string) error {
	if err != nil || len(rest) > 0 {
		return fmt.Errorf("this hook's command line is wrong (%v): fix the hook command the client runs (gitwarrant hook <client> [--loop L | --default-loop L] [--strict])", argError(err, rest))
	}
	return nil
}

// decideAgent translates the payload, decides each call through the gate
// and renders the combined answer.
func decideAgent(app *App, client string, o hookAgentOptions, data []byte, failure error) hook.Reply {
	env := GateEnv(app, app.Cwd, app.IO.Err)
	env.ParseStore = parsecache.Open // docs/performance.md#the-parse-cache, as hook claude
	tr, terr := hook.Translate(client, o.event, data)
	switch {
	case o.event != "" && o.event != hook.AgentPre && o.event != hook.AgentPrompt:
		failure = firstErr(failure, fmt.Errorf("unknown --event %q (pre or prompt)", o.event))
	case tr.Event == hook.AgentPrompt && failure == nil:
		a := gate.RoutePrompt(env, o.Options, tr.Prompt, terr)
		return hook.RenderPrompt(client, a.Context, a.Message)
	case tr.Event == hook.AgentPrompt:
		return hook.RenderPrompt(client, "", "") // a prompt is never blocked
	case tr.Event == hook.AgentOther && terr == nil && failure == nil:
		return hook.RenderNothing(client)
	case tr.Inert && failure == nil:
		return hook.RenderPre(client, tr.Gate, "", true, "")
	}
	ctx, cancel := context.WithTimeout(context.Background(), HookDeadline)
	defer cancel()
	if failure != nil {
		a := gate.Asks("%v", failure)
		return hook.RenderPre(client, tr.Gate, string(a.Verdict), false, a.Reason)
	}
	if terr != nil || len(tr.Calls) == 0 {
		// The gate words an unreadable payload: silent outside a project
		// when nothing is pinned, else ask.
		if terr == nil {
			terr = fmt.Errorf("the payload names no tool call")
		}
		a := gate.Decide(ctx, env, o.Options, nil, terr)
		return hook.RenderPre(client, tr.Gate, string(a.Verdict), a.Silent, a.Reason)
	}
	verdict, silent, reason := combine(ctx, env, o.Options, tr.Calls)
	return hook.RenderPre(client, tr.Gate, verdict, silent, reason)
}

// combine decides each call and keeps the strictest answer: a deny stops
// at once, an ask outranks an allow, and one call the gate leaves silent
// leaves the whole to the client.
func combine(ctx context.Context, env gate.Env, o gate.Options, calls [][]byte) (string, bool, string) {
	verdict, silent := loops.Allow, false
	var reasons []string
	for _, c := range calls {
		a := gate.Decide(ctx, env, o, c, nil)
		switch {
		case a.Silent:
			silent = true
			continue
		case a.Verdict == loops.Deny:
			return string(loops.Deny), false, a.Reason
		case a.Verdict == loops.Ask:
			if verdict != loops.Ask {
				reasons = reasons[:0]
			}
			verdict = loops.Ask
		case verdict == loops.Ask:
			continue
		}
		reasons = append(reasons, a.Reason)
	}
	if verdict == loops.Allow && silent {
		return "", true, ""
	}
	return string(verdict), false, strings.Join(reasons, "; ")
}
