package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

// BenchmarkDecide is one hook decision in-process: a Bash call pinned to a
// template loop, in a Git repository whose project holds every template;
// the -cached variants keep parses in memory as the servers do.
// bench/gate.sh measures the whole process against git.
func BenchmarkDecide(b *testing.B) {
	root, dir := newLoopsRepo(b)
	for _, t := range templates.List() {
		if err := os.WriteFile(filepath.Join(dir, t.Name+".loop.md"), t.Body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	data, _ := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "git push origin feature/login-fix && go test ./... 2>&1 | tee /tmp/test.log # push the fix"}})
	plain := Env{Getenv: func(k string) string { return "" }, Cwd: root, Allower: TypedAllower}
	cached := plain
	cached.Loops = loops.NewCache() // as the MCP server and REST mirror run
	for _, c := range []struct {
		name string
		env  Env
		o    Options
	}{
		{"pinned", plain, Options{Loop: "fix-bug-on-branch", NoRecord: true}},
		{"unpinned", plain, Options{NoRecord: true}},
		{"pinned-cached", cached, Options{Loop: "fix-bug-on-branch", NoRecord: true}},
		{"unpinned-cached", cached, Options{NoRecord: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if a := Decide(context.Background(), c.env, c.o, data, nil); a.Silent {
					b.Fatal("silent")
				}
			}
		})
	}
}
