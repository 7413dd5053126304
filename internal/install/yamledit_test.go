package install

import (
	"bytes"
	"strings"
	"testing"
)

// Every lefthook shape install edits: the edit lands where lefthook reads
// it, in the file's own form and indentation, and cutting the block gives
// the original bytes back; shapes it does not edit are refused.
func TestLefthookInsertShapes(t *testing.T) {
	ok := []struct{ name, src, want string }{
		{"commands", "pre-commit:\n  commands:\n    lint:\n      run: x\n", "  commands:\n    # gitwarrant:begin pre-commit"},
		{"four spaces", "pre-commit:\n    commands:\n        lint:\n            run: x\n", "        # gitwarrant:begin pre-commit — added by `gitwarrant install`, removed by `gitwarrant uninstall`\n        gitwarrant-record:\n            run: "},
		{"jobs", "pre-commit:\n  jobs:\n    - run: x\n", "    # gitwarrant:begin pre-commit — added by `gitwarrant install`, removed by `gitwarrant uninstall`\n    - name: gitwarrant-record\n      run: "},
		{"indentless jobs", "pre-commit:\n  jobs:\n  - run: x\n", "  - name: gitwarrant-record\n    run: "},
		{"comments above the first entry stay with it", "pre-commit:\n  commands:\n    # lint first\n    lint:\n      run: x\n", "  commands:\n    # gitwarrant:begin"},
		{"only parallel", "pre-commit:\n  parallel: true\n", "pre-commit:\n  # gitwarrant:begin pre-commit — added by `gitwarrant install`, removed by `gitwarrant uninstall`\n  commands:\n    gitwarrant-record:\n"},
		{"missing hook, no final newline", "commit-msg:\n  commands:\n    m:\n      run: x", "\n# gitwarrant:begin pre-commit"},
		{"missing hook, jobs form elsewhere", "commit-msg:\n  jobs:\n    - run: x\n", "pre-commit:\n  jobs:\n    - name: gitwarrant-record\n"},
		{"empty file", "", "# gitwarrant:begin pre-commit"},
		{"CRLF", "pre-commit:\r\n  commands:\r\n    lint:\r\n      run: x\r\n", "gitwarrant-record"},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			out, err := lefthookInsert([]byte(c.src), "pre-commit")
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !lefthookRuns(out, "pre-commit") {
				t.Fatalf("lefthook would not run gitwarrant:\n%s", out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Fatalf("want %q in:\n%s", c.want, out)
			}
			if back, found := cutBlock(out, "pre-commit"); !found || !bytes.Equal(back, []byte(c.src)) {
				t.Fatalf("cutting the block: %q, want %q", back, c.src)
			}
		})
	}
	for _, src := range []string{
		"pre-commit: {commands: {lint: {run: x}}}\n",
		"pre-commit:\n  commands: {lint: {run: x}}\n",
		"pre-commit:\n  jobs: []\n",
		"base: &b\n  commands:\n    lint:\n      run: x\npre-commit: *b\n",
		"- not a map\n",
		"pre-commit: [\n",
	} {
		if out, err := lefthookInsert([]byte(src), "pre-commit"); err == nil && lefthookRuns(out, "pre-commit") {
			if back, found := cutBlock(out, "pre-commit"); found && bytes.Equal(back, []byte(src)) {
				continue // edited safely after all
			}
			t.Errorf("%q: edited into %q", src, out)
		}
	}
}

func TestPreCommitInsertShapes(t *testing.T) {
	src := "# mine\nrepos:\n# the linters\n- repo: https://example.com/x\n  rev: v1\n  hooks:\n  - id: y\n"
	out, err := preCommitInsert([]byte(src), "commit")
	if err != nil {
		t.Fatal(err)
	}
	if r := preCommitRuns(out); !r["pre-commit"] || !r["commit-msg"] {
		t.Fatalf("not wired:\n%s", out)
	}
	if !strings.Contains(string(out), "repos:\n# gitwarrant:begin repo") || !strings.Contains(string(out), "stages: [commit]") {
		t.Fatalf("block not placed first at the list's indentation:\n%s", out)
	}
	if back, _ := cutBlock(out, preCommitWhat); string(back) != src {
		t.Fatalf("cut: %q", back)
	}
	for _, bad := range []string{"repos: []\n", "[]\n", "repos:\n  x: 1\n", "fail_fast: true\n"} {
		if _, err := preCommitInsert([]byte(bad), "pre-commit"); err == nil {
			t.Errorf("%q: edited", bad)
		}
	}
}
