package cli_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// jsonCases runs every command that has --json, keyed by command path.
// lines marks JSON Lines output (a stream of objects); later marks a
// command that is being added elsewhere, run once it is in the tree.
var jsonCases = map[string]struct {
	args  []string
	code  int
	lines bool
	later bool
}{
	"gitwarrant check":         {args: []string{"check", "--json", "appeal", "draft", "appeal letter"}},
	"gitwarrant list":          {args: []string{"list", "--json"}},
	"gitwarrant match":         {args: []string{"match", "--json", "draft an appeal for my denied claim"}},
	"gitwarrant show":          {args: []string{"show", "--json", "appeal"}},
	"gitwarrant templates":     {args: []string{"templates", "--json"}},
	"gitwarrant version":       {args: []string{"version", "--json"}},
	"gitwarrant install":       {args: []string{"install", "--json"}},
	"gitwarrant uninstall":     {args: []string{"uninstall", "--json"}},
	"gitwarrant doctor":        {args: []string{"doctor", "--json"}, code: 1}, // after uninstall: no gate is live
	"gitwarrant record log":    {args: []string{"record", "log", "--json"}, lines: true},
	"gitwarrant record verify": {args: []string{"record", "verify", "--json"}},
	"gitwarrant lint":          {args: []string{"lint", "--json"}, later: true},
	"gitwarrant explain":       {args: []string{"explain", "--json", "--loop", "appeal", "Read", "denial letter.pdf"}},
	"gitwarrant keys list":     {args: []string{"keys", "list", "--json"}, later: true},
	"gitwarrant metrics":       {args: []string{"metrics", "--json"}, later: true},
	"gitwarrant propose":       {args: []string{"propose", "--json", "appeal", "read", "state insurance regulations"}},
	"gitwarrant proposals":     {args: []string{"proposals", "--json"}},
	"gitwarrant session list":  {args: []string{"session", "list", "--json"}},
}

// TestEveryJSONOutputIsObjects runs the real binary for every command in
// the tree that has --json: each prints one JSON object (or, for a stream,
// one object per line) and nothing else on stdout, and its flag comes from
// the one helper (same help text everywhere). A --json added to a command
// without a case here fails the test.
func TestEveryJSONOutputIsObjects(t *testing.T) {
	bin := testkit.Binary(t) // built from cmd/gitwarrant
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	usage := ""
	seen := map[string]bool{}
	for _, c := range commandTree() {
		if f := c.Flags().Lookup("json"); f != nil {
			seen[c.CommandPath()] = true
			if usage == "" {
				usage = f.Usage
			}
			if f.Usage != usage || !strings.Contains(f.Usage, "docs/design.md#json-output") {
				t.Errorf("%s --json: usage %q; add the flag with jsonFlag (internal/cli/json.go)", c.CommandPath(), f.Usage)
			}
		}
	}
	for path := range seen {
		if _, ok := jsonCases[path]; !ok {
			t.Errorf("%s has --json but no case in jsonCases", path)
		}
	}
	for path, c := range jsonCases {
		if !seen[path] && !c.later {
			t.Errorf("%s lost its --json flag", path)
		}
	}

	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "T"}, {"config", "user.email", "t@example.com"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for _, args := range [][]string{{"init"}, {"new", "appeal", "--template", "insurance-appeal"}} {
		if _, stderr, code := runIn(t, dir, bin, args...); code != 0 {
			t.Fatalf("gitwarrant %v: exit %d\n%s", args, code, stderr)
		}
	}
	// In order: check before record log, install before uninstall.
	for _, path := range []string{"gitwarrant check", "gitwarrant list", "gitwarrant match", "gitwarrant show",
		"gitwarrant templates", "gitwarrant version", "gitwarrant install", "gitwarrant uninstall", "gitwarrant record log",
		"gitwarrant lint", "gitwarrant keys list", "gitwarrant metrics", "gitwarrant propose", "gitwarrant proposals"} {
		c := jsonCases[path]
		if !seen[path] {
			continue // a later one, not in this tree yet
		}
		stdout, stderr, code := runIn(t, dir, bin, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s", path, code, c.code, stderr)
			continue
		}
		docs := []string{stdout}
		if c.lines {
			docs = strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		}
		for _, doc := range docs {
			dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
			var obj map[string]any
			if err := dec.Decode(&obj); err != nil || dec.More() || len(obj) == 0 {
				t.Errorf("%s: stdout is not one JSON object (%v):\n%s", path, err, doc)
			}
		}
	}
}
