package ci_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

const deployLoop = `---
name: deploy
description: ship releases
warrant:
  read: [the repository]
  change:
    - the changelog
  send: [push to main]
  never:
    - force-push to main
---
# Brief
Ship.
`

const childLoop = `---
name: child
extends: deploy
description: a narrower deploy
---
# Brief
Child.
`

const otherParent = `---
name: wide
description: a wide loop
warrant:
  send: [push anywhere]
---
# Brief
Wide.
`

// fixture is a real repository with real ssh-keygen keys, driven through
// the real binary.
type fixture struct {
	t         *testing.T
	dir, repo string
	bin       string
	env       []string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	for _, tool := range []string{"git", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	dir := t.TempDir()
	f := &fixture{t: t, dir: dir, repo: filepath.Join(dir, "repo"), bin: testkit.Binary(t)}
	f.env = append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"PATH="+filepath.Dir(f.bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, k := range []string{"ada", "eve"} {
		f.run(dir, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", k, "-f", filepath.Join(dir, k))
	}
	os.MkdirAll(f.repo, 0o755)
	f.git("init", "-q", "-b", "main")
	f.git("config", "user.email", "ada@example.com")
	f.git("config", "user.name", "Ada")
	f.gw(0, "init")
	f.write(".gitwarrant/loops/deploy.loop.md", deployLoop)
	f.write(".gitwarrant/loops/child.loop.md", childLoop)
	f.write(".gitwarrant/loops/wide.loop.md", otherParent)
	f.gw(0, "signers", "add", "ada@example.com", filepath.Join(dir, "ada.pub"))
	f.commitAll("base")
	return f
}

func (f *fixture) run(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, f.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (f *fixture) git(args ...string) string {
	f.t.Helper()
	return f.run(f.repo, append([]string{"git"}, args...)...)
}

// gw runs the binary and checks its exit code; stdout and stderr are
// returned apart.
func (f *fixture) gwIn(dir string, want int, args ...string) (string, string) {
	f.t.Helper()
	cmd := exec.Command(f.bin, args...)
	cmd.Dir, cmd.Env = dir, f.env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		f.t.Fatal(err)
	}
	if code != want {
		f.t.Fatalf("gitwarrant %v: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", args, code, want, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func (f *fixture) gw(want int, args ...string) (string, string) {
	f.t.Helper()
	return f.gwIn(f.repo, want, args...)
}

func (f *fixture) write(rel, s string) {
	f.t.Helper()
	p := filepath.Join(f.repo, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(rel string) string {
	b, err := os.ReadFile(filepath.Join(f.repo, rel))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) commitAll(msg string) {
	f.t.Helper()
	f.git("add", "-A")
	f.git("commit", "-q", "--allow-empty", "-m", msg)
}

func (f *fixture) branch(name string) {
	f.t.Helper()
	f.git("checkout", "-q", "-B", name, "main")
}

func (f *fixture) key(name string) string { return filepath.Join(f.dir, name) }

func (f *fixture) amend(key string, args ...string) {
	f.t.Helper()
	f.gw(0, append(append([]string{"amend"}, args...), "--yes", "--key", f.key(key))...)
}

// ciJSON runs `ci --format json` and decodes its one document.
func (f *fixture) ciJSON(want int, args ...string) map[string]any {
	f.t.Helper()
	out, errOut := f.gw(want, append([]string{"ci", "--base", "main", "--format", "json"}, args...)...)
	var doc map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		f.t.Fatalf("not JSON: %v\n%s\nstderr: %s", err, out, errOut)
	}
	if dec.More() {
		f.t.Fatalf("more than one JSON document:\n%s", out)
	}
	return doc
}

func changes(doc map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range doc["warrants"].(map[string]any)["changes"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func findChange(t *testing.T, doc map[string]any, entry string) map[string]any {
	t.Helper()
	for _, c := range changes(doc) {
		if c["entry"] == entry || (entry == "" && c["entry"] == nil) {
			return c
		}
	}
	t.Fatalf("no change %q in %v", entry, changes(doc))
	return nil
}

const stateRegs = "state insurance regulations"

func TestWarrantAcceptance(t *testing.T) {
	f := newFixture(t)

	// A signed amend passes.
	f.branch("signed")
	f.amend("ada", "deploy", "read", stateRegs)
	doc := f.ciJSON(0)
	c := findChange(t, doc, stateRegs)
	if c["kind"] != "widening" || c["signed"].(map[string]any)["signer"] != "ada@example.com" {
		t.Fatalf("want a widening signed by ada: %v", c)
	}
	out, _ := f.gw(0, "ci", "--base", "main")
	if !strings.Contains(out, "signed by ada@example.com") || !strings.Contains(out, "passed") {
		t.Fatalf("text report:\n%s", out)
	}

	// The same change by hand fails, naming the line.
	f.branch("unsigned")
	f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "read: [the repository]", "read: [the repository, "+stateRegs+"]", 1))
	f.commitAll("widen by hand")
	doc = f.ciJSON(1)
	c = findChange(t, doc, stateRegs)
	if c["signed"] != nil || c["line"].(float64) != 5 || doc["uncovered"].(float64) != 2 { // deploy, and child through it
		t.Fatalf("want unsigned at line 5: %v", doc)
	}

	// A signer only head lists: the pull request adds eve, and eve signs.
	f.branch("headsigner")
	f.write(".gitwarrant/allowed_signers", f.read(".gitwarrant/allowed_signers")+"eve@example.com namespaces=\"gitwarrant\" "+strings.TrimSpace(readFile(t, f.key("eve")+".pub"))+"\n")
	f.commitAll("add eve")
	f.amend("eve", "deploy", "read", stateRegs, "--signer", "eve@example.com")
	doc = f.ciJSON(1)
	c = findChange(t, doc, stateRegs)
	if c["signed"] != nil || !strings.Contains(fmt.Sprint(c["refused"]), "no allowed_signers line") {
		t.Fatalf("want refused (eve is not in the merge base's signers): %v", c)
	}

	// A signed amend for a different entry.
	f.branch("otherentry")
	f.amend("ada", "deploy", "read", "the wiki")
	f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(f.read(".gitwarrant/loops/deploy.loop.md"), "the wiki", stateRegs, 1))
	f.commitAll("swap the entry")
	doc = f.ciJSON(1)
	if c = findChange(t, doc, stateRegs); c["signed"] != nil {
		t.Fatalf("an amend of another entry covered it: %v", c)
	}
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Widenings that need a signature, and narrowings that do not.
func TestWideningKinds(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name   string
		edit   func()
		widens bool
	}{
		{"remove never", func() {
			f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "  never:\n    - force-push to main\n", "", 1))
		}, true},
		{"delete loop", func() { os.Remove(filepath.Join(f.repo, ".gitwarrant/loops/wide.loop.md")) }, true},
		{"add loop with allow", func() {
			f.write(".gitwarrant/loops/fresh.loop.md", "---\nname: fresh\ndescription: new\nwarrant:\n  read: [the docs]\n---\n# Brief\nNew.\n")
		}, true},
		{"change extends", func() {
			f.write(".gitwarrant/loops/child.loop.md", strings.Replace(childLoop, "extends: deploy", "extends: wide", 1))
		}, true},
		{"edit allowed_signers", func() {
			f.write(".gitwarrant/allowed_signers", f.read(".gitwarrant/allowed_signers")+"eve@example.com "+strings.TrimSpace(readFile(t, f.key("eve")+".pub"))+"\n")
		}, true},
		{"add never", func() {
			f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "    - force-push to main\n", "    - force-push to main\n    - delete tags\n", 1))
		}, false},
		{"remove allow", func() {
			f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "  send: [push to main]\n", "", 1))
		}, false},
		{"edit brief", func() {
			f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "Ship.", "Ship carefully, and say so.", 1))
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f.t = t
			f.branch(strings.ReplaceAll(tc.name, " ", "-"))
			tc.edit()
			f.commitAll(tc.name)
			want := 0
			if tc.widens {
				want = 1
			}
			doc := f.ciJSON(want)
			if tc.widens && doc["uncovered"].(float64) < 1 {
				t.Fatalf("no unsigned widening: %v", doc)
			}
			if !tc.widens && doc["warrants"].(map[string]any)["widenings"].(float64) != 0 {
				t.Fatalf("a narrowing counted as a widening: %v", doc)
			}
		})
	}
}

// appendNotes appends n honest entries to the chain file rel.
func (f *fixture) appendNotes(rel string, n int) {
	f.t.Helper()
	p := filepath.Join(f.repo, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	c := &chain.File{Path: p, LockPath: filepath.Join(f.dir, "lock")}
	for i := 0; i < n; i++ {
		if _, err := c.Append(chain.Entry{Loop: "deploy", Kind: chain.KindNote, Note: fmt.Sprintf("note %d", i)}); err != nil {
			f.t.Fatal(err)
		}
	}
}

func join(ls []string) string { return strings.TrimSuffix(strings.Join(ls, ""), "\n") + "\n" }

func lines(s string) []string { return strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n") }

// splitInto writes a single chain file's lines as a folder of segment
// files with the given last seqs, and removes the file.
func (f *fixture) splitInto(rel, folder string, ends ...int) {
	f.t.Helper()
	ls := lines(f.read(rel))
	from := 1
	for _, to := range ends {
		f.write(fmt.Sprintf("%s/%09d-%09d.jsonl", folder, from, to), join(ls[from-1:to]))
		from = to + 1
	}
	os.Remove(filepath.Join(f.repo, rel))
}

func findings(doc map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range doc["chain_findings"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func wantFinding(t *testing.T, doc map[string]any, chainName string, seq int, reason, commit string) {
	t.Helper()
	fs := findings(doc)
	if len(fs) != 1 || fs[0]["chain"] != chainName || fs[0]["seq"].(float64) != float64(seq) || fs[0]["reason"] != reason {
		t.Fatalf("want one %q finding on %s seq %d, got %v", reason, chainName, seq, fs)
	}
	if commit != "" && fs[0]["commit"] != commit {
		t.Fatalf("finding names commit %v, want %s", fs[0]["commit"], commit)
	}
	if doc["ok"] != false || doc["chain_ok"] != false {
		t.Fatalf("a broken chain passed: %v", doc)
	}
}

const w1 = ".gitwarrant/record/w1.jsonl"

func TestChainAcceptance(t *testing.T) {
	f := newFixture(t)
	f.git("checkout", "-q", "main")
	f.appendNotes(w1, 5)
	f.appendNotes(".gitwarrant/record/w3.jsonl", 10)
	f.splitInto(".gitwarrant/record/w3.jsonl", ".gitwarrant/record/w3", 4, 8, 10)
	f.commitAll("chains")
	head := func() string { return strings.TrimSpace(f.git("rev-parse", "HEAD")) }

	f.branch("honest")
	f.appendNotes(w1, 3)
	f.commitAll("more entries")
	doc := f.ciJSON(0)
	if doc["chain_ok"] != true {
		t.Fatalf("%v", doc)
	}

	f.branch("rewrite")
	ls := lines(f.read(w1))
	ls[1] = strings.Replace(ls[1], "note 1", "note X", 1)
	f.write(w1, join(ls))
	f.commitAll("rewrite entry 2")
	bad := head()
	f.appendNotes(".gitwarrant/record/w9.jsonl", 1)
	f.commitAll("later commit")
	wantFinding(t, f.ciJSON(1), "w1", 2, "rewritten", bad)
	out, _ := f.gw(1, "ci", "--base", "main")
	if !strings.Contains(out, "w1 seq 2 at commit "+bad[:12]) {
		t.Fatalf("text report does not name chain, seq and commit:\n%s", out)
	}

	f.branch("droplast")
	ls = lines(f.read(w1))
	f.write(w1, join(ls[:4]))
	f.commitAll("drop the last entry")
	wantFinding(t, f.ciJSON(1), "w1", 5, "truncated", head())

	f.branch("deletefile")
	os.Remove(filepath.Join(f.repo, w1))
	f.commitAll("delete the chain")
	wantFinding(t, f.ciJSON(1), "w1", 1, "deleted", head())

	f.branch("deleteseg")
	os.Remove(filepath.Join(f.repo, ".gitwarrant/record/w3/000000005-000000008.jsonl"))
	f.commitAll("delete a sealed segment")
	wantFinding(t, f.ciJSON(1), "w3", 5, "missing entries", head())

	f.branch("reorder")
	ls = lines(f.read(w1))
	ls[2], ls[3] = ls[3], ls[2]
	f.write(w1, join(ls))
	f.commitAll("reorder")
	wantFinding(t, f.ciJSON(1), "w1", 3, "rewritten", "")

	f.branch("notgenesis")
	ls = lines(f.read(w1))
	f.write(".gitwarrant/record/w5.jsonl", join(ls[1:]))
	f.commitAll("a new chain that does not start at GENESIS")
	wantFinding(t, f.ciJSON(1), "w5", 1, "new entry does not verify", "")

	f.branch("segmentgrows")
	f.appendNotes(".gitwarrant/record/w3.jsonl", 0)
	f.git("show", "main:.gitwarrant/record/w3/000000001-000000004.jsonl")
	// the folder grows by a new delta after the old ones
	var all strings.Builder
	for _, n := range []string{"000000001-000000004", "000000005-000000008", "000000009-000000010"} {
		all.WriteString(f.read(".gitwarrant/record/w3/" + n + ".jsonl"))
	}
	f.write(".gitwarrant/record/w3.jsonl", all.String())
	f.appendNotes(".gitwarrant/record/w3.jsonl", 2)
	newLines := lines(f.read(".gitwarrant/record/w3.jsonl"))
	os.Remove(filepath.Join(f.repo, ".gitwarrant/record/w3.jsonl"))
	f.write(".gitwarrant/record/w3/000000011-000000012.jsonl", join(newLines[10:]))
	f.commitAll("two new entries in a new segment file")
	if doc := f.ciJSON(0); doc["chains"].([]any)[1].(map[string]any)["new"].(float64) != 2 {
		t.Fatalf("%v", doc)
	}

	// Migration: the merge base's single file and head's folder are the
	// same chain.
	f.branch("migrate")
	f.appendNotes(w1, 3)
	f.splitInto(w1, ".gitwarrant/record/w1", 4, 8)
	f.commitAll("migrate w1 to a folder")
	doc = f.ciJSON(0)
	if c := doc["chains"].([]any)[0].(map[string]any); c["chain"] != "w1" || c["new"].(float64) != 3 {
		t.Fatalf("%v", doc)
	}
	f.branch("migratebad")
	f.appendNotes(w1, 3)
	ls = lines(f.read(w1))
	ls[0] = strings.Replace(ls[0], "note 0", "note Y", 1)
	f.write(w1, join(ls))
	f.splitInto(w1, ".gitwarrant/record/w1", 4, 8)
	f.commitAll("migrate and rewrite")
	wantFinding(t, f.ciJSON(1), "w1", 1, "rewritten", "")

	// Pinned heads: present passes, absent fails.
	f.branch("pins")
	f.appendNotes(w1, 1)
	last := lines(f.read(w1))
	var e struct{ Hash string }
	json.Unmarshal([]byte(last[len(last)-1]), &e)
	f.git("add", "-A")
	f.git("commit", "-q", "-m", "pinned\n\nWarrant-Head: "+w1+" "+e.Hash)
	f.ciJSON(0)
	f.git("commit", "-q", "--allow-empty", "-m", "pinned wrong\n\nWarrant-Head: "+w1+" sha256:"+strings.Repeat("0", 64))
	wantFinding(t, f.ciJSON(1), "w1", 0, "pinned head absent", head())
}

// A base branch that gained 50 commits and 500 entries after the fork
// point: an honest pull request passes.
func TestBaseMovedOn(t *testing.T) {
	f := newFixture(t)
	f.git("checkout", "-q", "main")
	f.appendNotes(w1, 5)
	f.commitAll("chain")
	f.branch("pr")
	f.amend("ada", "deploy", "read", stateRegs)
	f.appendNotes(".gitwarrant/record/w9.jsonl", 3)
	f.commitAll("pr work")
	f.git("checkout", "-q", "main")
	for i := 0; i < 50; i++ {
		f.appendNotes(w1, 10)
		f.write(fmt.Sprintf("src/file%d.txt", i), "x\n")
		f.commitAll(fmt.Sprintf("main moves on %d", i))
	}
	f.git("checkout", "-q", "pr")
	doc := f.ciJSON(0)
	if doc["uncovered"].(float64) != 0 || doc["chain_ok"] != true {
		t.Fatalf("%v", doc)
	}
	// main itself passes against the fork point too
	f.gw(0, "ci", "--base", "pr", "--head", "main", "--format", "json")
}

// Errors: a nonexistent base, a shallow clone, a bare clone, SHA-256.
func TestCIErrors(t *testing.T) {
	f := newFixture(t)
	f.branch("pr")
	f.amend("ada", "deploy", "read", stateRegs)
	_, errOut := f.gw(1, "ci", "--base", "nosuch")
	if !strings.Contains(errOut, "nosuch is not a commit") || strings.Contains(errOut, "goroutine") {
		t.Fatalf("%s", errOut)
	}
	f.git("checkout", "-q", "main")
	for i := 0; i < 3; i++ {
		f.write(fmt.Sprintf("m%d", i), "x")
		f.commitAll("main moves")
	}

	// Bare clone: works from Git objects alone.
	bare := filepath.Join(f.dir, "bare.git")
	f.run(f.dir, "git", "clone", "-q", "--bare", f.repo, bare)
	out, _ := f.gwIn(bare, 0, "ci", "--base", "main", "--head", "pr")
	if !strings.Contains(out, "signed by ada@example.com") {
		t.Fatalf("%s", out)
	}

	// Shallow clone of the pull request without the merge base.
	sh := filepath.Join(f.dir, "shallow")
	f.run(f.dir, "git", "clone", "-q", "--depth", "1", "--branch", "pr", "file://"+f.repo, sh)
	f.run(sh, "git", "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main")
	_, errOut = f.gwIn(sh, 1, "ci", "--base", "origin/main")
	if !strings.Contains(errOut, "fetch-depth: 0") || strings.Contains(errOut, "goroutine") {
		t.Fatalf("%s", errOut)
	}
	f.run(sh, "git", "fetch", "-q", "--unshallow", "origin")
	f.gwIn(sh, 0, "ci", "--base", "origin/main")

	// SHA-256 repositories are refused.
	s256 := filepath.Join(f.dir, "s256")
	os.MkdirAll(s256, 0o755)
	f.run(s256, "git", "init", "-q", "--object-format=sha256")
	_, errOut = f.gwIn(s256, 1, "ci", "--base", "HEAD")
	if !strings.Contains(errOut, "sha256") {
		t.Fatalf("%s", errOut)
	}
}

// install --pre-push wires a pre-push hook that runs the gate against
// what the remote holds: an unsigned widening is refused, a signed one
// goes through, and uninstall takes the hook out.
func TestPrePushHook(t *testing.T) {
	f := newFixture(t)
	remote := filepath.Join(f.dir, "remote.git")
	f.run(f.dir, "git", "init", "-q", "--bare", "-b", "main", remote)
	f.git("remote", "add", "origin", remote)
	f.git("push", "-q", "origin", "main")
	f.git("remote", "set-head", "origin", "main")
	f.gw(0, "install", "--pre-push", "--default-loop", "child")
	hook := filepath.Join(f.repo, ".git", "hooks", "pre-push")
	if b, err := os.ReadFile(hook); err != nil || !strings.Contains(string(b), "gitwarrant hook pre-push") {
		t.Fatalf("no pre-push hook: %v", err)
	}
	f.commitAll("install")
	f.git("push", "-q", "origin", "main")

	f.branch("unsigned")
	f.write(".gitwarrant/loops/deploy.loop.md", strings.Replace(deployLoop, "read: [the repository]", "read: [the repository, "+stateRegs+"]", 1))
	f.commitAll("widen by hand")
	cmd := exec.Command("git", "push", "origin", "unsigned")
	cmd.Dir, cmd.Env = f.repo, f.env
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "unsigned") || !strings.Contains(string(out), "the push is refused") {
		t.Fatalf("an unsigned widening was pushed: %v\n%s", err, out)
	}
	if _, err := exec.Command("git", "--git-dir", remote, "rev-parse", "-q", "--verify", "refs/heads/unsigned").Output(); err == nil {
		t.Fatal("the remote has the refused branch")
	}

	f.branch("signed")
	f.amend("ada", "deploy", "read", stateRegs)
	f.git("push", "-q", "origin", "signed")

	f.gw(0, "uninstall")
	if _, err := os.Stat(hook); err == nil {
		t.Fatal("uninstall left the pre-push hook")
	}
}

// --require-user-presence counts only FIDO signatures: an ordinary key's
// amend no longer covers the widening.
func TestRequireUserPresence(t *testing.T) {
	f := newFixture(t)
	f.branch("signed")
	f.amend("ada", "deploy", "read", stateRegs)
	f.ciJSON(0)
	doc := f.ciJSON(1, "--require-user-presence")
	if c := findChange(t, doc, stateRegs); c["signed"] != nil || !strings.Contains(fmt.Sprint(c["refused"]), "FIDO") {
		t.Fatalf("an ordinary key counted under --require-user-presence: %v", c)
	}
}

// Removing or weakening the gate warns; --strict fails.
func TestGateItself(t *testing.T) {
	f := newFixture(t)
	f.git("checkout", "-q", "main")
	f.write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"gitwarrant hook claude"}]}]}}`+"\n")
	f.write(".github/workflows/gate.yml", "on: pull_request\njobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n      - uses: gitwarrant/gitwarrant@v1\n        with:\n          strict: true\n")
	f.commitAll("the gate")
	// The http wiring (docs/hook-protocol.md#the-http-hook), as install
	// writes it: one key a line.
	httpHook := "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"http\",\n" +
		"            \"url\": \"http://127.0.0.1:24117/hooks/claude?loop=fix#gitwarrant:install\",\n            \"timeout\": 30,\n            \"onFailure\": \"block\",\n" +
		"            \"headers\": {\"Authorization\": \"Bearer $GITWARRANT_HOOK_KEY\"},\n            \"allowedEnvVars\": [\"GITWARRANT_HOOK_KEY\"]\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	f.branch("http-base")
	f.write(".claude/settings.json", httpHook)
	f.commitAll("the http hook")
	f.git("checkout", "-q", "main")
	f.git("merge", "-q", "--ff-only", "http-base")
	cases := map[string]func(){
		"http hook onFailure dropped": func() {
			f.write(".claude/settings.json", strings.Replace(httpHook, "            \"onFailure\": \"block\",\n", "", 1))
		},
		"http hook pointed elsewhere": func() {
			f.write(".claude/settings.json", strings.Replace(httpHook, "127.0.0.1:24117/hooks/claude?loop=fix#gitwarrant:install", "127.0.0.1:9/allow-all", 1))
		},
		"hook removed": func() { f.write(".claude/settings.json", "{}\n") },
		"workflow deleted": func() {
			os.Remove(filepath.Join(f.repo, ".github/workflows/gate.yml"))
		},
		"continue-on-error": func() {
			f.write(".github/workflows/gate.yml", strings.Replace(f.read(".github/workflows/gate.yml"), "      - uses: gitwarrant/gitwarrant@v1\n", "      - uses: gitwarrant/gitwarrant@v1\n        continue-on-error: true\n", 1))
		},
		"strict dropped": func() {
			f.write(".github/workflows/gate.yml", strings.Replace(f.read(".github/workflows/gate.yml"), "        with:\n          strict: true\n", "", 1))
		},
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			f.t = t
			f.branch(strings.ReplaceAll(name, " ", "-"))
			edit()
			f.commitAll(name)
			doc := f.ciJSON(0)
			if len(doc["gate_warnings"].([]any)) == 0 {
				t.Fatalf("no warning: %v", doc)
			}
			f.ciJSON(1, "--strict")
			out, _ := f.gw(0, "ci", "--base", "main", "--format", "markdown")
			if !strings.Contains(out, "Changes to the gate itself") {
				t.Fatalf("markdown lacks the gate section:\n%s", out)
			}
		})
	}
	f.t = t
	f.branch("unrelated")
	f.write("src/x.txt", "x\n")
	f.commitAll("unrelated")
	f.ciJSON(0, "--strict")
}

// lint errors in head's loops fail the gate.
func TestLintErrorsFail(t *testing.T) {
	f := newFixture(t)
	f.branch("lint")
	f.write(".gitwarrant/loops/orphan.loop.md", "---\nname: orphan\ndescription: extends nothing that exists\nextends: nosuch\n---\n# Brief\nOrphan.\n")
	f.commitAll("an orphan loop")
	doc := f.ciJSON(1)
	if len(doc["lint_errors"].([]any)) == 0 {
		t.Fatalf("no lint error: %v", doc)
	}
	l := doc["lint_errors"].([]any)[0].(map[string]any)
	if l["file"] != ".gitwarrant/loops/orphan.loop.md" {
		t.Fatalf("lint error names %v", l["file"])
	}
}
