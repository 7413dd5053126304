package shell

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestLazyTablesConcurrentFirstUse parses, from many goroutines at once,
// commands that reach every table built on first use (wrappers, effects,
// copy options, git builtins and option tables, code variables and
// options, shell names): each goroutine must read exactly what one
// goroutine reads alone. Run with -race, and alone (-run), so that the
// first use happens here.
func TestLazyTablesConcurrentFirstUse(t *testing.T) {
	srcs := []string{
		`env FOO=1 nohup cp -r src .git/hooks`,
		`timeout 5 tee -a .gitwarrant/x`,
		`git push --force-with-lease origin main`,
		`git stash push -m wip`,
		`git commit --amend --no-edit`,
		`LD_PRELOAD=/tmp/x.so ls`,
		`tar -xzf a.tgz --to-command=sh`,
		`rsync -avze ssh a host:b`,
		`fish -c 'rm -rf x'`,
		`uv run python -c 'print(1)'`,
	}
	render := func() string {
		var b strings.Builder
		for _, src := range srcs {
			s := Parse(src)
			b.WriteString(dump(s))
			for _, c := range s.Clauses {
				fmt.Fprintf(&b, "%q\n", effectStrings(c))
			}
		}
		return b.String()
	}
	const n = 16
	got := make([]string, n)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range n {
		done.Go(func() {
			start.Wait()
			got[i] = render()
		})
	}
	start.Done()
	done.Wait()
	for i, g := range got {
		if g != got[0] {
			t.Fatalf("goroutine %d read differently from goroutine 0:\n%s\n---\n%s", i, g, got[0])
		}
	}
	for _, w := range []string{"write .git/hooks", "write .gitwarrant/x", "OPAQUE(LD_PRELOAD", "tar --to-command runs a program", "rsync -e runs a program", "git sub=push", "git sub=stash"} {
		if !strings.Contains(got[0], w) {
			t.Errorf("no %q in:\n%s", w, got[0])
		}
	}
}
