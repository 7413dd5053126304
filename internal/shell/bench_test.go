package shell

import (
	"os/exec"
	"testing"
)

// benchCommands are typical Bash tool calls of a coding agent.
var benchCommands = []string{
	`git status`,
	`go test ./...`,
	`git add -A && git commit -m "fix: handle empty input"`,
	`grep -rn "TODO" internal/ | head -20`,
	`cd web && npm run build && npm test -- --watch=false`,
	`find . -name '*.go' -not -path './vendor/*' -exec gofmt -l {} +`,
	"git commit -F - <<'EOF'\nfix: parser\n\nLonger body.\nEOF",
	`git push origin feature-branch`,
	`ls -la ~/project/src && cat README.md | wc -l`,
	`python3 -m pytest tests/ -x -q 2>&1 | tail -30`,
	`sed -i 's/old/new/g' src/a.ts src/b.ts`,
	`for f in *.md; do echo "$f"; done`,
}

// BenchmarkParse: Parse, then every clause's effects and git reading, per
// typical command (ns/op is per command).
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		src := benchCommands[i%len(benchCommands)]
		s := Parse(src)
		for _, c := range s.Clauses {
			c.Effects()
			if g, ok := c.Git(); ok && g.Push != nil {
				g.Push.Describe()
			}
		}
	}
}

// BenchmarkParseEach reports each command on its own.
func BenchmarkParseEach(b *testing.B) {
	for _, src := range benchCommands {
		name := src
		if len(name) > 32 {
			name = name[:32]
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s := Parse(src)
				for _, c := range s.Clauses {
					c.Effects()
					c.Git()
				}
			}
		})
	}
}

// BenchmarkGitRevParse is the yardstick: one `git rev-parse HEAD`, the
// cheapest git call a hook makes, in a fresh repository. Parsing a command
// should cost a small fraction of it.
func BenchmarkGitRevParse(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not installed")
	}
	dir := b.TempDir()
	for _, args := range [][]string{{"init", "-q", "."}, {"-c", "user.name=b", "-c", "user.email=b@x", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
