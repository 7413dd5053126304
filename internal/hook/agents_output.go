package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Reply is what a client's hook process says: stdout, stderr and the exit
// status, each as that client reads it (docs/agents.md).
type Reply struct {
	Stdout []byte
	Stderr string
	Exit   int
}

// askPrefix begins the reason of an ask the client cannot ask: Codex
// ignores permissionDecision "ask" and runs the call, and Gemini CLI's
// "ask" stalls a non-interactive session, so both get a block that says a
// person must approve (docs/agents.md#ask).
const askPrefix = "a person must approve this call before it runs (gitwarrant asks; this client's hooks cannot ask, so it is blocked): "

// RenderPre answers a tool call. verdict is "allow", "ask" or "deny";
// silent means no loop decided and the client's own permissions decide.
// gate is the client's hook event (Cursor answers beforeReadFile with
// allow or deny only). A block always exits 2 with the reason on stderr —
// the one failure status every client treats as a refusal — and, where
// the client reads JSON, also says deny there.
func RenderPre(client, gate, verdict string, silent bool, reason string) Reply {
	reason = strings.ToValidUTF8(reason, "\uFFFD")
	if strings.TrimSpace(reason) == "" {
		reason = "gitwarrant: blocked"
	}
	switch verdict {
	case "allow", "ask", "deny":
	default:
		verdict = "ask"
	}
	if silent {
		verdict = ""
	}
	switch client {
	case ClientCodex:
		// Codex 0.171 reads only deny from a PreToolUse hook (allow and ask
		// are "unsupported" and the call runs): no answer leaves the call to
		// Codex's own approvals, a block is exit 2 with the reason.
		switch verdict {
		case "deny":
			return Reply{Stderr: reason + "\n", Exit: 2}
		case "ask":
			return Reply{Stderr: askPrefix + reason + "\n", Exit: 2}
		}
		return Reply{}
	case ClientGemini:
		switch verdict {
		case "deny", "ask":
			if verdict == "ask" {
				reason = askPrefix + reason
			}
			return Reply{Stdout: jsonLine(map[string]any{"decision": "deny", "reason": reason}), Stderr: reason + "\n", Exit: 2}
		case "allow":
			return Reply{Stdout: jsonLine(map[string]any{"decision": "allow", "reason": reason})}
		}
		return Reply{Stdout: []byte("{}\n")}
	case ClientCursor:
		perm := verdict
		if perm == "ask" && gate == "beforeReadFile" {
			perm, reason = "deny", askPrefix+reason
		}
		switch perm {
		case "deny":
			return Reply{Stdout: jsonLine(map[string]any{"permission": "deny", "user_message": reason, "agent_message": reason}), Stderr: reason + "\n", Exit: 2}
		case "allow", "ask":
			return Reply{Stdout: jsonLine(map[string]any{"permission": perm, "user_message": reason, "agent_message": reason})}
		}
		return Reply{Stdout: []byte("{}\n")}
	}
	return Reply{Stderr: "gitwarrant: unknown client " + client + "\n", Exit: 2}
}

// RenderPrompt answers a prompt hook: the loop the session works under,
// as context for the model where the client takes it (Codex
// UserPromptSubmit, Gemini CLI BeforeAgent) and a line for the person. A
// prompt is never blocked.
func RenderPrompt(client, context, message string) Reply {
	switch client {
	case ClientCodex:
		if context == "" {
			return Reply{}
		}
		return Reply{Stdout: Context(EventUserPromptSubmit, context, message)}
	case ClientGemini:
		if context == "" {
			return Reply{Stdout: []byte("{}\n")}
		}
		return Reply{Stdout: Context("BeforeAgent", context, message)}
	case ClientCursor:
		// beforeSubmitPrompt takes no context for the model.
		out := map[string]any{"continue": true}
		if message != "" {
			out["user_message"] = message
		}
		return Reply{Stdout: jsonLine(out)}
	}
	return Reply{}
}

// RenderNothing answers an event gitwarrant does not gate: what lets the
// client go on.
func RenderNothing(client string) Reply {
	if client == ClientCodex {
		return Reply{}
	}
	return Reply{Stdout: []byte("{}\n")}
}

func jsonLine(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // only strings and maps
	return b.Bytes()
}
