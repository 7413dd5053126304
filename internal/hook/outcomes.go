package hook

import (
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// Extra keys the hook writes on its record entries.
const (
	ExtraTool      = "tool"
	ExtraToolUseID = "tool_use_id"
	ExtraSession   = "session"
	ExtraEvent     = "event"
	ExtraRan       = "ran"

	// EventPostToolUse marks the note `hook claude --post` appends when a
	// checked call has run.
	EventPostToolUse = "post_tool_use"
)

// Outcome pairs an asked check with what happened next.
type Outcome struct {
	Check chain.Entry
	// Ran is true when a post_tool_use note with the same tool_use_id
	// follows: a person approved the prompt and the tool ran. False means
	// the call never ran — refused by the person, or still waiting.
	Ran  bool
	Post *chain.Entry
}

// AskOutcomes answers the question Claude Code's own permissions leave
// open: for every `ask` the hook recorded, did a person approve it? Entries
// may come from several chains in any order; pairing is by tool_use_id.
func AskOutcomes(entries []chain.Entry) []Outcome {
	posts := map[string]*chain.Entry{}
	for i := range entries {
		e := &entries[i]
		if e.Kind == chain.KindNote && extraString(e, ExtraEvent) == EventPostToolUse {
			if id := extraString(e, ExtraToolUseID); id != "" {
				posts[id] = e
			}
		}
	}
	var out []Outcome
	for _, e := range entries {
		if e.Kind != chain.KindCheck || !FromHook(e.Via) || e.Verdict != "ask" {
			continue
		}
		o := Outcome{Check: e}
		if id := extraString(&e, ExtraToolUseID); id != "" {
			if p, ok := posts[id]; ok {
				o.Ran, o.Post = true, p
			}
		}
		out = append(out, o)
	}
	return out
}

func extraString(e *chain.Entry, key string) string {
	s, _ := e.Extra[key].(string)
	return s
}

// FromHook reports whether a record entry's via names an agent hook:
// "hook" (Claude Code) or "hook <client>" (docs/agents.md).
func FromHook(via string) bool {
	return via == "hook" || strings.HasPrefix(via, "hook ")
}
