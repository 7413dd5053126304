package hook

import (
	"encoding/json"
	"strings"
)

// Decision renders Claude Code's PreToolUse decision JSON (docs/hook-protocol.md#claude-code-hooks:
// hookSpecificOutput.permissionDecision allow|ask|deny with a reason). It is
// printed with exit status 0, the documented path on every Claude Code
// version; verdicts other than allow and deny become ask, so a bad value
// can never read as permission.
func Decision(verdict, reason string) []byte { return DecisionContext(verdict, reason, "") }

// DecisionContext is Decision with additionalContext for the agent (""
// for none): what it should know beyond this call's reason, such as a
// loop that is not the version in force.
func DecisionContext(verdict, reason, context string) []byte {
	switch verdict {
	case "allow", "deny", "ask":
	default:
		verdict = "ask"
	}
	out := map[string]any{
		"hookSpecificOutput": map[string]any{
			"hookEventName":            "PreToolUse",
			"permissionDecision":       verdict,
			"permissionDecisionReason": strings.ToValidUTF8(reason, "\uFFFD"),
		},
	}
	if context != "" {
		out["hookSpecificOutput"].(map[string]any)["additionalContext"] = strings.ToValidUTF8(context, "\uFFFD")
	}
	b, err := json.Marshal(out)
	if err != nil { // unreachable: only strings and maps
		return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"gitwarrant: internal error"}}` + "\n")
	}
	return append(b, '\n')
}

// Reason formats a decision reason: "gitwarrant: <loop>: <rule> — <why>".
// The loop is omitted when no loop decided (self-protection, failures).
func Reason(loop, rule, why string) string {
	var b strings.Builder
	b.WriteString("gitwarrant: ")
	if loop != "" {
		b.WriteString(loop + ": ")
	}
	b.WriteString(rule)
	if why != "" && why != rule {
		b.WriteString(" — " + why)
	}
	return b.String()
}
