package agente2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/agente2e"
)

// post sends a Messages API body to the server and returns the answer.
func post(t *testing.T, url, path string, body map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+path, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return string(out)
}

// TestServerFollowsTheConversation checks the scripted server without any
// client: the answer depends on the calls already in the conversation,
// side requests and another server's calls consume nothing, and what the
// client sent back is read from the recorded requests.
func TestServerFollowsTheConversation(t *testing.T) {
	srv := agente2e.NewServer(t, agente2e.Script{
		Calls: []agente2e.ToolCall{agente2e.Bash("git status"), agente2e.Read("/x/.env")},
		Final: "all done",
	})
	tools := []any{map[string]any{"name": "Bash"}}
	user := map[string]any{"role": "user", "content": "fix it"}
	use := func(id string) map[string]any {
		return map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{}}}}
	}
	result := func(id string, content any, isErr bool) map[string]any {
		return map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}}}
	}

	first := post(t, srv.URL, "/v1/messages?beta=true", map[string]any{"stream": true, "tools": tools, "messages": []any{user}})
	for _, want := range []string{"event: message_start", `"type":"tool_use"`, `"id":"` + srv.ToolUseID(0) + `"`,
		`"partial_json":"{\"command\":\"git status\"`, `"stop_reason":"tool_use"`, "event: message_stop"} {
		if !strings.Contains(first, want) {
			t.Errorf("first answer lacks %s:\n%s", want, first)
		}
	}
	side := post(t, srv.URL, "/v1/messages", map[string]any{"messages": []any{user}})
	if !strings.Contains(side, `"type":"text"`) || strings.Contains(side, "tool_use") {
		t.Errorf("a side request got %s", side)
	}
	// Another server's call in the history (a resumed session) counts for nothing.
	second := post(t, srv.URL, "/v1/messages", map[string]any{"tools": tools, "messages": []any{
		user, use("toolu_other_00"), result("toolu_other_00", "x", false),
		use(srv.ToolUseID(0)), result(srv.ToolUseID(0), "On branch main", false)}})
	if !strings.Contains(second, srv.ToolUseID(1)) || !strings.Contains(second, `"file_path":"/x/.env"`) {
		t.Errorf("second answer: %s", second)
	}
	last := post(t, srv.URL, "/v1/messages", map[string]any{"stream": true, "tools": tools, "messages": []any{
		user, use(srv.ToolUseID(0)), result(srv.ToolUseID(0), "On branch main", false),
		use(srv.ToolUseID(1)), result(srv.ToolUseID(1), []any{map[string]any{"type": "text", "text": "denied"}}, true)}})
	if !strings.Contains(last, `"text":"all done"`) || !strings.Contains(last, `"stop_reason":"end_turn"`) {
		t.Errorf("last answer: %s", last)
	}
	if count := post(t, srv.URL, "/v1/messages/count_tokens", map[string]any{}); !strings.Contains(count, "input_tokens") {
		t.Errorf("count_tokens: %s", count)
	}

	reqs := srv.Requests()
	kinds := []agente2e.Kind{agente2e.KindMain, agente2e.KindSide, agente2e.KindMain, agente2e.KindMain, agente2e.KindCountTokens}
	for i, k := range kinds {
		if reqs[i].Kind != k {
			t.Errorf("request %d: kind %s, want %s", i, reqs[i].Kind, k)
		}
	}
	results := agente2e.ToolResults(reqs)
	if r := results[srv.ToolUseID(0)]; r.Content != "On branch main" || r.IsError {
		t.Errorf("result 0: %+v", r)
	}
	if r := results[srv.ToolUseID(1)]; r.Content != "denied" || !r.IsError {
		t.Errorf("result 1: %+v", r)
	}
}

// TestServerEndsAConversationThatDoesNotAdvance: a client that never sends
// back the calls it ran would get the same call forever; the server ends
// the conversation and says so.
func TestServerEndsAConversationThatDoesNotAdvance(t *testing.T) {
	srv := agente2e.NewServer(t, agente2e.Script{Calls: []agente2e.ToolCall{agente2e.Bash("git status")}})
	body := map[string]any{"tools": []any{map[string]any{"name": "Bash"}}, "messages": []any{map[string]any{"role": "user", "content": "go"}}}
	var last string
	for range 10 {
		if srv.Overrun() {
			t.Fatalf("overrun before the limit: %s", last)
		}
		last = post(t, srv.URL, "/v1/messages", body)
	}
	if !srv.Overrun() || strings.Contains(last, "tool_use") {
		t.Errorf("after 10 requests for a one-call script: overrun %v, answer %s", srv.Overrun(), last)
	}
}
