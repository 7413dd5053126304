package eval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// TestKindAskCounted shows that the corpus report's count of calls asked
// for their kind sees both ways kinds ask, as the real hook words them: a
// clause wider than its entry's list, and a package script the loop lets
// the agent edit; and that a call asked for another reason is not counted.
func TestKindAskCounted(t *testing.T) {
	r, err := newReplay(t.TempDir(), "node-pnpm")
	if err != nil {
		t.Fatal(err)
	}
	loop := "---\nname: narrow\nversion: 1\nwarrant:\n  read: []\n  draft: []\n  change:\n    - Bash(pnpm *)\n    - Edit(apps/**)\n  send: []\n  ask:\n    - Bash(pnpm audit)\n  never: []\n---\n\n# Brief\n\nKinds.\n\n# Procedure\n\n1. Work.\n"
	if err := os.WriteFile(filepath.Join(r.root, ".gitwarrant", "loops", "narrow.loop.md"), []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd     string
		verdict loops.Verdict
		kind    bool
	}{
		{"pnpm publish --no-git-checks", loops.Ask, true}, // a send under a change entry
		{"pnpm --filter web typecheck", loops.Ask, true},  // apps/web/package.json is editable
		{"pnpm audit", loops.Ask, false},                  // the ask list
		{"pnpm install", loops.Allow, false},
	} {
		v, rule := r.decideUnder("narrow", corpusCall{ID: "t", Tool: "Bash", Input: map[string]any{"command": tc.cmd}})
		if v != tc.verdict || kindAsk(rule) != tc.kind {
			t.Errorf("%s: %s — %s; want %s, counted for its kind: %v", tc.cmd, v, rule, tc.verdict, tc.kind)
		}
	}
}
