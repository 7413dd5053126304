package shell

import "testing"

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
