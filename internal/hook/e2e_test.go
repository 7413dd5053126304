package hook_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	gwproject "github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

// These tests drive the real gitwarrant binary, built once (internal/testkit),
// against real projects in temporary Git repositories, with the recorded
// payloads in testdata/.

// TestMain removes the binary the end-to-end tests build.
func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

const fixBugLoop = `---
name: fix-bug
description: Fix a bug on a branch and open a pull request.
version: 1
triggers: [git push, flaky test]
warrant:
  read: [src/main.go, TODO in src, src/**/*.go, "https://pkg.go.dev/net/http", go http client timeout docs, "Read(src/**)", "WebFetch(domain:pkg.go.dev)", WebSearch]
  draft: []
  change: [src/main.go, src/util.go, docs/notes.md, analysis/report.ipynb, "Edit(src/*.go)", "Edit(docs/notes.md)", "Edit(analysis/*.ipynb)"]
  send: [research flaky test]
  ask: [git push, github create_issue]
  never: [production cluster, force push]
---
# Brief

Fix the bug.

# Procedure

Branch, fix, test, push after asking.
`

const anythingLoop = `---
name: anything
description: Everything is allowed here, to show self-protection still holds.
version: 1
warrant:
  read: [anything, "Read(**)"]
  draft: [anything]
  change: [anything, "Edit(**)", "Bash(git *)", "Bash(gitwarrant *)"]
  send: [anything]
  ask: []
  never: []
---
# Brief

x
`

// project is a temporary Git repository with a .gitwarrant project.
type project struct {
	t    *testing.T
	root string
	home string
}

func newProject(t *testing.T, loops map[string]string) *project {
	t.Helper()
	testkit.Binary(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	p := &project{t: t, root: t.TempDir(), home: t.TempDir()}
	p.git("init", "-q", "-b", "main")
	for name, body := range loops {
		p.write(".gitwarrant/loops/"+name+".loop.md", body)
	}
	p.write("README.md", "hello\n")
	p.git("add", "README.md")
	p.git("commit", "-q", "-m", "init")
	return p
}

func (p *project) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, "NO_COLOR=1",
		"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1",
	}
}

func (p *project) git(args ...string) {
	p.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = p.root, p.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (p *project) write(rel, body string) {
	p.t.Helper()
	path := filepath.Join(p.root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// payload is a recorded payload with its cwd pointing at the project.
func (p *project) payload(name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		p.t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(data), "__CWD__", filepath.ToSlash(p.root)))
}

// call is a payload built from a tool name and input.
func (p *project) call(tool, id string, input map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": p.root, "hook_event_name": "PreToolUse",
		"tool_name": tool, "tool_input": input, "tool_use_id": id,
	})
	return b
}

type hookRun struct {
	stdout, stderr string
	decision       string
	reason         string
}

// hook runs `gitwarrant hook claude args…` in dir with stdin and checks the
// protocol: exit 0 always, stdout empty or one decision object.
func (p *project) hookIn(dir string, stdin []byte, args ...string) hookRun {
	p.t.Helper()
	cmd := exec.Command(testkit.Binary(p.t), append([]string{"hook", "claude"}, args...)...)
	cmd.Dir, cmd.Env = dir, p.env()
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		p.t.Fatalf("hook claude %v: %v (must always exit 0)\nstderr: %s", args, err, errb.String())
	}
	r := hookRun{stdout: out.String(), stderr: errb.String()}
	if r.stdout == "" {
		return r
	}
	var d struct {
		H struct {
			Event    string `json:"hookEventName"`
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.H.Event != "PreToolUse" {
		p.t.Fatalf("stdout is not a PreToolUse decision: %v\n%s", err, r.stdout)
	}
	r.decision, r.reason = d.H.Decision, d.H.Reason
	return r
}

func (p *project) hook(stdin []byte, args ...string) hookRun {
	p.t.Helper()
	return p.hookIn(p.root, stdin, args...)
}

// entries reads every chain in the project's record.
func (p *project) entries() []chain.Entry {
	p.t.Helper()
	// the live record: the refs (docs/record.md#the-live-record)
	r, err := record.Open(&gwproject.Project{Dir: filepath.Join(p.root, ".gitwarrant"), Root: p.root})
	if err != nil {
		p.t.Fatal(err)
	}
	les, err := r.Entries()
	if err != nil {
		p.t.Fatal(err)
	}
	var all []chain.Entry
	for _, e := range les {
		all = append(all, e.Entry)
	}
	return all
}

func TestHookVerdictsForEveryToolKind(t *testing.T) {
	p := newProject(t, map[string]string{"fix-bug": fixBugLoop})
	// Only a typed entry allows a tool call (docs/typed-entries.md): the
	// loop's words ask and deny, its typed entries allow.
	cases := []struct{ file, want string }{
		{"bash", "ask"},        // ask: git push
		{"write", "allow"},     // change: docs/notes.md
		{"edit", "allow"},      // change: src/main.go
		{"multiedit", "allow"}, // change: src/util.go
		{"notebookedit", "allow"},
		{"read", "allow"},
		{"grep", "allow"},
		{"glob", "allow"},
		{"webfetch", "allow"},
		{"websearch", "allow"},
		{"agent", "ask"},                   // no typed entry names a sub-agent; prose never allows a tool call
		{"mcp_github_create_issue", "ask"}, // ask: github create_issue
		{"unknown", "deny"},                // never: production cluster
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			r := p.hook(p.payload(c.file), "--loop", "fix-bug")
			if r.decision != c.want {
				t.Fatalf("decision = %q (%s), want %s", r.decision, r.reason, c.want)
			}
			if !strings.HasPrefix(r.reason, "gitwarrant: fix-bug: ") {
				t.Errorf("reason %q does not name the loop", r.reason)
			}
		})
	}
	// Every check is on the record, via hook, with the tool call's identity.
	es := p.entries()
	if len(es) != len(cases) {
		t.Fatalf("record has %d entries, want %d", len(es), len(cases))
	}
	for i, e := range es {
		if e.Kind != chain.KindCheck || e.Via != "hook" || e.Loop != "fix-bug" ||
			e.Extra["tool_use_id"] == nil || e.Extra["session"] != "abc123" || e.Extra["tool"] == nil {
			t.Errorf("entry %d = %+v", i, e)
		}
	}
}

func TestUnpinnedHookRoutesOrStaysSilent(t *testing.T) {
	p := newProject(t, map[string]string{"fix-bug": fixBugLoop})
	if r := p.hook(p.payload("bash")); r.decision != "ask" {
		t.Errorf("git push routed by trigger: decision %q (%s), want ask", r.decision, r.reason)
	}
	quiet := p.call("Bash", "toolu_q", map[string]any{"command": "ls -la"})
	if r := p.hook(quiet); r.stdout != "" {
		t.Errorf("unrouted call: stdout %q, want nothing", r.stdout)
	}
	if r := p.hook(quiet, "--strict"); r.decision != "ask" || !strings.Contains(r.reason, "no loop covers") {
		t.Errorf("unrouted call under --strict: %q (%s), want ask", r.decision, r.reason)
	}
	outside := t.TempDir()
	if r := p.hookIn(outside, []byte(`{"tool_name":"Bash","cwd":"`+outside+`","tool_input":{"command":"ls"}}`)); r.stdout != "" {
		t.Errorf("bare hook outside any project: stdout %q, want nothing", r.stdout)
	}
	if r := p.hookIn(outside, []byte("not json")); r.stdout != "" {
		t.Errorf("bare hook outside any project, bad input: stdout %q, want nothing", r.stdout)
	}
}

func TestPinnedHookFailsClosedToAsk(t *testing.T) {
	p := newProject(t, map[string]string{"fix-bug": fixBugLoop, "anything": anythingLoop})
	good := p.call("Read", "toolu_r", map[string]any{"file_path": filepath.Join(p.root, "src/main.go")})
	big := append([]byte(`{"tool_name":"Bash","tool_input":{"command":"`), bytes.Repeat([]byte("a"), 2<<20)...)
	big = append(big, `"}}`...)
	cases := []struct {
		name  string
		stdin []byte
		args  []string
		want  string // a word the reason must contain
	}{
		{"non-JSON", []byte("hello"), []string{"--loop", "anything"}, "payload"},
		{"truncated JSON", p.payload("bash")[:40], []string{"--loop", "anything"}, "payload"},
		{"2 MiB stdin", big, []string{"--loop", "anything"}, "1 MiB"},
		{"tool_input a string", []byte(`{"tool_name":"Bash","tool_input":"ls"}`), []string{"--loop", "anything"}, "tool_input"},
		{"missing tool_name", []byte(`{"tool_input":{"command":"ls"}}`), []string{"--loop", "anything"}, "tool_name"},
		{"command a number", []byte(`{"tool_name":"Bash","tool_input":{"command":42}}`), []string{"--loop", "anything"}, "must be a string"},
		{"unknown loop", good, []string{"--loop", "nope"}, "nope"},
		{"invalid loop name", good, []string{"--loop", "../x"}, "not a loop name"},
		{"bad flag", good, []string{"--lop", "anything"}, "command line"},
		{"empty stdin", nil, []string{"--strict"}, "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := p.hook(c.stdin, c.args...)
			if r.decision != "ask" || !strings.Contains(r.reason, c.want) {
				t.Fatalf("decision %q (%s), want ask mentioning %q", r.decision, r.reason, c.want)
			}
		})
	}
	t.Run("missing project", func(t *testing.T) {
		outside := t.TempDir()
		in := []byte(`{"tool_name":"Read","cwd":"` + outside + `","tool_input":{"file_path":"x"}}`)
		for _, args := range [][]string{{"--loop", "anything"}, {"--strict"}} {
			if r := p.hookIn(outside, in, args...); r.decision != "ask" || !strings.Contains(r.reason, "no gitwarrant project") {
				t.Errorf("%v: decision %q (%s), want ask", args, r.decision, r.reason)
			}
		}
	})
	t.Run("loop that fails to parse", func(t *testing.T) {
		p.write(".gitwarrant/loops/broken.loop.md", "---\nname: broken\nversion: 1\nwarrant:\n  nevr: [x]\n---\n")
		defer os.Remove(filepath.Join(p.root, ".gitwarrant/loops/broken.loop.md"))
		for _, args := range [][]string{{"--loop", "broken"}, {"--strict"}, nil} {
			if r := p.hook(good, args...); r.decision != "ask" || !strings.Contains(r.reason, "broken.loop.md") {
				t.Errorf("%v: decision %q (%s), want ask naming the file", args, r.decision, r.reason)
			}
		}
	})
	t.Run("recording fails", func(t *testing.T) {
		q := newProject(t, map[string]string{"anything": anythingLoop})
		q.write(".git/gitwarrant", "not a directory\n") // where the record's local state must go
		r := q.hook(q.call("Read", "toolu_x", map[string]any{"file_path": "src/main.go"}), "--loop", "anything")
		if r.decision != "ask" || !strings.Contains(r.reason, "could not be recorded") {
			t.Fatalf("decision %q (%s), want ask because the allow was not recorded", r.decision, r.reason)
		}
	})
}

func TestSelfProtectionBeatsEveryLoop(t *testing.T) {
	p := newProject(t, map[string]string{"anything": anythingLoop})
	deny := [][]byte{
		p.call("Write", "t1", map[string]any{"file_path": filepath.Join(p.root, ".gitwarrant/loops/x.loop.md"), "content": "x"}),
		p.call("Edit", "t2", map[string]any{"file_path": filepath.Join(p.root, ".claude/settings.json"), "old_string": "a", "new_string": "b"}),
		p.call("Bash", "t3", map[string]any{"command": "gitwarrant amend anything send 'wire funds'"}),
		p.call("Bash", "t4", map[string]any{"command": "git update-ref refs/gitwarrant/x HEAD"}),
		p.call("Bash", "t5", map[string]any{"command": "echo x > .git/hooks/pre-commit"}),
		// issue 12: signing is a person's act
		p.call("Bash", "t7", map[string]any{"command": "gitwarrant signers add eve@example.com eve.pub --yes"}),
		p.call("Bash", "t8", map[string]any{"command": "ssh-keygen -Y sign -n gitwarrant -f ~/.ssh/id_ed25519 entry"}),
	}
	for _, args := range [][]string{{"--loop", "anything"}, {"--strict"}, nil} {
		for _, in := range deny {
			r := p.hook(in, args...)
			if r.decision != "deny" || !strings.Contains(r.reason, "a human must do this") {
				t.Errorf("%v %s: decision %q (%s), want deny", args, in, r.decision, r.reason)
			}
		}
	}
	// Even with no project at all, the hook will not let an agent plant one.
	outside := t.TempDir()
	plant := []byte(`{"tool_name":"Write","cwd":"` + outside + `","tool_input":{"file_path":"` + outside + `/.gitwarrant/loops/x.loop.md"}}`)
	if r := p.hookIn(outside, plant); r.decision != "deny" {
		t.Errorf("no project: decision %q, want deny", r.decision)
	}
	read := p.call("Read", "t6", map[string]any{"file_path": filepath.Join(p.root, ".gitwarrant/loops/anything.loop.md")})
	if r := p.hook(read, "--loop", "anything"); r.decision != "allow" || strings.Contains(r.reason, "a human must do this") {
		t.Errorf("reading a loop: decision %q (%s), want allow by the loop's Read(**) (reading is not self-protection)", r.decision, r.reason)
	}
}

func TestPostHookTellsApprovedAsksFromRefusedOnes(t *testing.T) {
	p := newProject(t, map[string]string{"fix-bug": fixBugLoop})
	push := func(id string) []byte {
		return p.call("Bash", id, map[string]any{"command": "git push origin main"})
	}
	for _, id := range []string{"toolu_A", "toolu_B"} {
		if r := p.hook(push(id), "--loop", "fix-bug"); r.decision != "ask" {
			t.Fatalf("%s: decision %q, want ask", id, r.decision)
		}
	}
	// Claude Code runs PostToolUse only for the call the person approved.
	var post map[string]any
	_ = json.Unmarshal(push("toolu_A"), &post)
	post["hook_event_name"] = "PostToolUse"
	post["tool_response"] = map[string]any{"stdout": "ok"}
	postJSON, _ := json.Marshal(post)
	if r := p.hook(postJSON, "--post"); r.stdout != "" {
		t.Fatalf("--post printed %q; it must print nothing", r.stdout)
	}
	// A post for a call that was never checked adds nothing.
	post["tool_use_id"] = "toolu_never_checked"
	other, _ := json.Marshal(post)
	p.hook(other, "--post")

	got := hook.AskOutcomes(p.entries())
	if len(got) != 2 {
		t.Fatalf("%d ask outcomes, want 2", len(got))
	}
	ran := map[string]bool{}
	for _, o := range got {
		ran[o.Check.Extra["tool_use_id"].(string)] = o.Ran
	}
	if !ran["toolu_A"] || ran["toolu_B"] {
		t.Errorf("outcomes %v: want toolu_A approved (ran) and toolu_B refused", ran)
	}
	if n := len(p.entries()); n != 3 {
		t.Errorf("record has %d entries, want 2 checks and 1 post note", n)
	}
}

func TestNoRecordChecksWithoutRecording(t *testing.T) {
	p := newProject(t, map[string]string{"fix-bug": fixBugLoop})
	if r := p.hook(p.payload("edit"), "--loop", "fix-bug", "--no-record"); r.decision != "allow" {
		t.Fatalf("decision %q (%s), want allow", r.decision, r.reason)
	}
	if n := len(p.entries()); n != 0 {
		t.Errorf("--no-record left %d entries", n)
	}
}
