package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// editedLoop is the appeal loop in two versions of the same length: the
// first allows drafting the appeal letter and editing notes/, the second
// allows neither.
func editedLoop(draft, dir string) string {
	return "---\nname: appeal\ndescription: Build the appeal; stop before send.\nwarrant:\n  read: [policy documents]\n  draft: [" + draft +
		"]\n  change: [\"Edit(" + dir + "/**)\"]\n  ask: [anything sent to the insurer]\n  never: [accepting a settlement]\n---\n# Brief\nAppeals.\n"
}

// TestServerSeesLoopEditOnNextCall: a running server, which keeps parsed
// loops in memory, decides the very next call by the loop file as it is
// now — after an edit, and after the file is swapped for a symbolic link
// to the very bytes it held (docs/mcp.md#parse-cache).
func TestServerSeesLoopEditOnNextCall(t *testing.T) {
	bin := testkit.Binary(t)
	dir := project(t, bin)
	path := filepath.Join(dir, ".gitwarrant", "loops", "appeal.loop.md")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before, after := editedLoop("appeal letter", "notes"), editedLoop("appeal memos.", "memos")
	if len(before) != len(after) {
		t.Fatal("the two versions must have the same length")
	}
	write(before)
	key := createKey(t, bin, dir, "agent", "read")
	srv := startServer(t, bin, dir)
	selfReported := map[string]any{"loop": "appeal", "action": "draft", "target": "appeal letter"}
	toolCall := map[string]any{"loop": "appeal", "tool": "Edit", "tool_input": map[string]any{"file_path": filepath.Join(dir, "notes", "a.md"), "old_string": "a", "new_string": "b"}}
	verdicts := func() (string, string) {
		t.Helper()
		_, a := rest(t, srv.url, key, "warrant_check", selfReported)
		_, b := rest(t, srv.url, key, "warrant_check", toolCall)
		return verdictOrCode(a), verdictOrCode(b)
	}
	for range 3 { // the same bytes, served from the cache
		if a, b := verdicts(); a != "allow" || b != "allow" {
			t.Fatalf("before the edit: %s, %s; want allow, allow", a, b)
		}
	}
	write(after)
	if a, b := verdicts(); a != "ask" || b != "ask" {
		t.Fatalf("on the call after the edit: %s, %s; want ask, ask", a, b)
	}
	write(before)
	if a, b := verdicts(); a != "allow" || b != "allow" {
		t.Fatalf("after the edit was undone: %s, %s; want allow, allow", a, b)
	}
	// The same bytes behind a symbolic link are refused, though the
	// server parsed exactly them a call ago.
	elsewhere := filepath.Join(t.TempDir(), "appeal.loop.md")
	if err := os.WriteFile(elsewhere, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, path); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if a, b := verdicts(); a != "loop_invalid" || b != "loop_invalid" {
		t.Fatalf("with the loop file a symbolic link: %s, %s; want loop_invalid, loop_invalid", a, b)
	}
}

// verdictOrCode is a warrant_check answer's verdict, or its error code.
func verdictOrCode(m map[string]any) string {
	if v, ok := m["verdict"].(string); ok {
		return v
	}
	if e, ok := m["error"].(map[string]any); ok {
		if c, ok := e["code"].(string); ok {
			return c
		}
	}
	return fmt.Sprint(m)
}
