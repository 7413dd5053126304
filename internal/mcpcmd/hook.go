package mcpcmd

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"sort"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
)

// claudeHook is POST /hooks/claude: the same decision as `gitwarrant hook
// claude` (cli.AnswerClaudeHook), with the hook's wiring in the URL's
// query instead of flags and its event read from the payload, recorded
// with via "hook-http" and the hook key's label, through the server's
// journal j. The server's parse cache
// saves the parse of unchanged loop bytes, never the read
// (docs/mcp.md#parse-cache), and its vouching memo what the record vouches
// for while allowed_signers and the record's refs are unchanged
// (vouch.Memo).
//
// Only PreToolUse is answered. The agent can read the hook key (it is in
// .claude/settings.local.json and in the environment of every command it
// runs), so any event the server takes, the agent can forge: a
// UserPromptSubmit would move its session's pin to a wider loop, a
// SessionEnd would drop the pin, a PostToolUse would claim that an asked
// call ran. install --hook http wires those events as command hooks; here
// they are refused, with a block a real client shows (a UserPromptSubmit
// so answered is not sent to the model) and a line in the server's log.
// A forged PreToolUse gets what the agent's own call would get.
func claudeHook(app *cli.App, errw io.Writer, j *record.Journal) mcp.ClaudeHookFunc {
	cache := loops.NewCache()
	vouches := vouch.NewMemo()
	return func(_ context.Context, c mcp.Caller, q url.Values, body []byte, readErr error) []byte {
		if ev := cli.ClaudeHookEvent(body); ev != "pre" {
			fmt.Fprintf(errw, "gitwarrant serve: refused a %s hook event posted with key %q: the http hook takes PreToolUse only\n", ev, c.Credential)
			return []byte(refusedHookEvent)
		}
		o, werr := hookWiring(q)
		o.Via, o.Credential = cli.ViaHTTPHook, c.Credential
		env := cli.GateEnv(app, app.Cwd, errw)
		env.Loops = cache
		env.Vouches = vouches
		env.Journal = j
		return cli.AnswerClaudeHook(env, cli.ClaudeHookCall{Options: o, Event: cli.ClaudeHookEvent(body), Data: body, ReadErr: readErr,
			WiringErr: werr, Fix: "fix the hook's url in .claude/settings.json (" + mcp.HookPath + "[?loop=L | ?default-loop=L][&strict=1]), or run `gitwarrant install --hook http` again"})
	}
}

// refusedHookEvent is the answer to any hook event but PreToolUse posted
// to the server: Claude Code blocks a prompt so answered, and shows the
// reason.
const refusedHookEvent = `{"decision":"block","reason":"gitwarrant: the http hook answers PreToolUse only. UserPromptSubmit, PostToolUse and SessionEnd must be command hooks, since the agent can read the hook key and could post them itself (docs/hook-protocol.md#the-http-hook): run ` + "`gitwarrant install --hook http`" + ` again to wire them so."}`

// hookWiring reads the hook's wiring from the URL's query: loop,
// default-loop, strict and no-record, each at most once, as the flags of
// `hook claude` (a loop named but empty is still named: it asks).
func hookWiring(q url.Values) (gate.Options, error) {
	var o gate.Options
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		vs := q[k]
		if len(vs) != 1 {
			return o, fmt.Errorf("%s is given %d times", k, len(vs))
		}
		v := vs[0]
		switch k {
		case "loop":
			o.Loop, o.LoopSet = v, true
		case "default-loop":
			o.DefaultLoop = v
		case "strict", "no-record":
			b, ok := map[string]bool{"": true, "1": true, "true": true, "0": false, "false": false}[v]
			if !ok {
				return o, fmt.Errorf("%s=%q: want 1 or 0", k, v)
			}
			if k == "strict" {
				o.Strict = b
			} else {
				o.NoRecord = b
			}
		default:
			return o, fmt.Errorf("unknown parameter %q (loop, default-loop, strict, no-record)", k)
		}
	}
	return o, nil
}
