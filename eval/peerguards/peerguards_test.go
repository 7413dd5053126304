package peerguards

import (
	"os"
	"path/filepath"
	"testing"
)

// tree writes files into a folder Source.
func tree(t *testing.T, files map[string]string) *Source {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(dir, "c0ffee")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func wantCases(t *testing.T, c *Corpus, want []Case) {
	t.Helper()
	if len(c.Cases) != len(want) {
		t.Fatalf("got %d cases, want %d: %+v", len(c.Cases), len(want), c.Cases)
	}
	for i := range want {
		if c.Cases[i] != want[i] {
			t.Errorf("case %d: got %+v, want %+v", i, c.Cases[i], want[i])
		}
	}
}

func TestDCGReadsCasesAndEscapes(t *testing.T) {
	s := tree(t, map[string]string{"tests/corpus/a.toml": `# a comment
[[case]]
description = "d"
command = "echo \"a\\b\" \u00e9"
expected = "deny"

[[case]]
command = "ls"
expected_decision = "allow"
[case.log]
decision = "allow"

[[case]]
input_kind = "hook_json"
raw_input = "{}"
expected_decision = "allow"
`})
	c, err := DCG(s)
	if err != nil {
		t.Fatal(err)
	}
	wantCases(t, c, []Case{
		{Command: `echo "a\b" é`, Verdict: Block, Source: "tests/corpus/a.toml:4"},
		{Command: "ls", Verdict: Allow, Source: "tests/corpus/a.toml:8"},
	})
	if len(c.Skipped) != 1 {
		t.Errorf("the hook payload case is not skipped: %+v", c.Skipped)
	}
}

func TestSafetyNetReadsAssertsContextsAndSkips(t *testing.T) {
	s := tree(t, map[string]string{"tests/core/x.test.ts": `const re = /a"b/g; // "not a string
test('a', () => {
  assertBlocked('git reset --hard', 'reason');
  assertAllowed("echo 'x'", tmpDir);
  withEnv({ SAFETY_NET_STRICT: '1' }, () => {
    assertBlocked(` + "`" + `bash -c 'rm -rf /'` + "`" + `, 'r');
  });
  assertBlocked(` + "`rm -rf ${dir}`" + `, 'r');
  expect(runGuard('git status')).toBeNull();
  const r = runGuard('git push -f');
  expect(r).not.toBeNull();
});
`, "tests/core/custom.test.ts": `writeConfig(dir, {});
assertBlocked('git add -A', 'r', dir);
`})
	c, err := SafetyNet(s)
	if err != nil {
		t.Fatal(err)
	}
	wantCases(t, c, []Case{
		{Command: "git add -A", Verdict: Block, Context: CustomRule + "; cwd dir", Source: "tests/core/custom.test.ts:2"},
		{Command: "git reset --hard", Verdict: Block, Source: "tests/core/x.test.ts:3"},
		{Command: "echo 'x'", Verdict: Allow, Context: "cwd tmpDir", Source: "tests/core/x.test.ts:4"},
		{Command: "bash -c 'rm -rf /'", Verdict: Block, Context: "SAFETY_NET_STRICT=1", Source: "tests/core/x.test.ts:6"},
		{Command: "git status", Verdict: Allow, Source: "tests/core/x.test.ts:9"},
		{Command: "git push -f", Verdict: Block, Source: "tests/core/x.test.ts:10"},
	})
	if len(c.Skipped) != 1 {
		t.Errorf("the interpolated command is not skipped: %+v", c.Skipped)
	}
}

func TestCodexReadsPoliciesAndTests(t *testing.T) {
	s := tree(t, map[string]string{
		"codex-rs/execpolicy/examples/e.codexpolicy": `# x
prefix_rule(
    pattern = ["git", "reset", "--hard"],
    decision = "forbidden",
    match = [["git", "reset", "--hard"]],
    not_match = ["git reset --keep"],
)
prefix_rule(pattern = ["cp"], decision = "prompt", match = ["cp -r a b"])
`,
		"codex-rs/execpolicy-legacy/src/default.policy": `"""
doc "quoted"
"""
define_program(program="cat", should_match=[["a b.txt"]], should_not_match=[[]])
define_program(program="env", should_not_match=[["X"]])
define_program(program="env", should_match=[["Y"]])
`,
		"codex-rs/execpolicy-legacy/tests/suite/t.rs": `fn t() {
    let args = &["-a"];
    let c = ExecCall::new("ls", args);
    assert_eq!(Ok(MatchedExec::Match { exec: x }), policy.check(&c));
    let d = ExecCall::new("head", &[]);
    assert_eq!(Err(Error::X {}), policy.check(&d));
}
`,
		"codex-rs/execpolicy/tests/basic.rs": `let p = PolicyParser::new(); ExecCall::new("git", &["commit"]);`,
	})
	c, err := Codex(s)
	if err != nil {
		t.Fatal(err)
	}
	wantCases(t, c, []Case{
		{Command: "git reset --hard", Verdict: Block, Context: "example policy (e.codexpolicy)", Source: "codex-rs/execpolicy/examples/e.codexpolicy:5"},
		{Command: "cp -r a b", Verdict: Ask, Context: "example policy (e.codexpolicy)", Source: "codex-rs/execpolicy/examples/e.codexpolicy:8"},
		{Command: "cat 'a b.txt'", Verdict: Allow, Source: "codex-rs/execpolicy-legacy/src/default.policy:4"},
		{Command: "cat", Verdict: Ask, Source: "codex-rs/execpolicy-legacy/src/default.policy:4"},
		{Command: "env Y", Verdict: Allow, Source: "codex-rs/execpolicy-legacy/src/default.policy:6"},
		{Command: "ls -a", Verdict: Allow, Source: "codex-rs/execpolicy-legacy/tests/suite/t.rs:3"},
		{Command: "head", Verdict: Ask, Source: "codex-rs/execpolicy-legacy/tests/suite/t.rs:5"},
	})
	// the not_match example, env X (another env definition may match it)
	// and basic.rs (an inline policy)
	if len(c.Skipped) != 3 {
		t.Errorf("skipped: %+v", c.Skipped)
	}
}
