package gate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

// TestCachedDecisionsMatchUncached: with a parse cache (as the servers
// run), every decision is the one an uncached hook makes, decided by
// concurrent callers under -race; and the loops the cache shares are,
// after all of it, still exactly a fresh parse (no decision changed them).
func TestCachedDecisionsMatchUncached(t *testing.T) {
	root, dir := newLoopsRepo(t)
	for _, tp := range templates.List() {
		if err := os.WriteFile(filepath.Join(dir, tp.Name+".loop.md"), tp.Body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	calls := []struct {
		tool  string
		input map[string]any
	}{
		{"Bash", map[string]any{"command": "git push origin feature/login-fix && go test ./... # push the fix"}},
		{"Bash", map[string]any{"command": "rm -rf / # clean up"}},
		{"Bash", map[string]any{"command": "go test ./..."}},
		{"Bash", map[string]any{"command": "ls -la src"}},
		{"Read", map[string]any{"file_path": filepath.Join(root, "src", "main.go")}},
		{"Edit", map[string]any{"file_path": filepath.Join(root, "src", "main.go"), "old_string": "a", "new_string": "b"}},
		{"Edit", map[string]any{"file_path": filepath.Join(root, ".gitwarrant", "loops", "x.loop.md"), "old_string": "a", "new_string": "b"}},
		{"Read", map[string]any{"file_path": filepath.Join(root, ".env")}},
		{"WebFetch", map[string]any{"url": "https://go.dev/doc", "prompt": "read"}},
	}
	names := []string{"", "fix-bug-on-branch", "insurance-appeal"}
	plain := Env{Getenv: func(string) string { return "" }, Cwd: root, Allower: TypedAllower}
	cached := plain
	cached.Loops = loops.NewCache()
	type job struct {
		o    Options
		data []byte
		want Answer
	}
	var jobs []job
	for _, c := range calls {
		data, _ := json.Marshal(map[string]any{"cwd": root, "hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": c.input})
		for _, n := range names {
			o := Options{Loop: n, NoRecord: true, Strict: n == ""}
			jobs = append(jobs, job{o, data, Decide(context.Background(), plain, o, data, nil)})
		}
	}
	seen := map[loops.Verdict]bool{}
	for _, j := range jobs {
		seen[j.want.Verdict] = true
	}
	if !seen[loops.Allow] || !seen[loops.Ask] || !seen[loops.Deny] {
		t.Fatalf("the calls must be allowed, asked and denied somewhere: %v", seen)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 5 * len(jobs) {
				j := jobs[(i+g)%len(jobs)]
				if got := Decide(context.Background(), cached, j.o, j.data, nil); got != j.want {
					t.Errorf("loop %q: cached %+v, uncached %+v", j.o.Loop, got, j.want)
					return
				}
			}
		})
	}
	wg.Wait()
	shared, errs := cached.Loops.LoadDir(dir)
	fresh, _ := loops.LoadDir(dir)
	if len(errs) > 0 || len(shared) != len(fresh) {
		t.Fatalf("LoadDir: %v", errs)
	}
	for i := range shared {
		if !reflect.DeepEqual(shared[i], fresh[i]) {
			t.Errorf("the shared %s differs from a fresh parse after the decisions", shared[i].Name)
		}
	}
}
