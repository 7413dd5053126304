package ghaction_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/ghaction"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
	"gopkg.in/yaml.v3"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testkit.Cleanup()
	os.Exit(code)
}

// fakeGitHub is an httptest fake of the three issue-comment endpoints the
// action calls. A token named "read-only" can read but not write.
type fakeGitHub struct {
	mu       sync.Mutex
	comments map[int64]string
	next     int64
	calls    []string
}

func (g *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, r.Method+" "+r.URL.Path)
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	write := r.Method == http.MethodPost || r.Method == http.MethodPatch
	if tok == "" || (write && tok == "read-only") {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, `{"message":"Resource not accessible by integration"}`)
		return
	}
	list := regexp.MustCompile(`^/repos/acme/app/issues/(\d+)/comments$`)
	edit := regexp.MustCompile(`^/repos/acme/app/issues/comments/(\d+)$`)
	var body struct {
		Body string `json:"body"`
	}
	switch {
	case list.MatchString(r.URL.Path) && r.Method == http.MethodGet:
		var out []map[string]any
		for id, b := range g.comments {
			out = append(out, map[string]any{"id": id, "body": b})
		}
		json.NewEncoder(w).Encode(out)
	case list.MatchString(r.URL.Path) && r.Method == http.MethodPost:
		json.NewDecoder(r.Body).Decode(&body)
		g.next++
		g.comments[g.next] = body.Body
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"id": g.next, "body": body.Body})
	case edit.MatchString(r.URL.Path) && r.Method == http.MethodPatch:
		id, _ := strconv.ParseInt(edit.FindStringSubmatch(r.URL.Path)[1], 10, 64)
		if _, ok := g.comments[id]; !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		json.NewDecoder(r.Body).Decode(&body)
		g.comments[id] = body.Body
		json.NewEncoder(w).Encode(map[string]any{"id": id, "body": body.Body})
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// runner runs action.yml's composite steps as the Actions runner would:
// `uses:` steps (actions/setup-go) are left out — Go is already here —
// and every `run:` step runs in bash with its expressions substituted and
// the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) per step.
type runner struct {
	t         *testing.T
	root, tmp string
	env       []string
	meta      struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Outputs map[string]struct {
			Value string `yaml:"value"`
		} `yaml:"outputs"`
		Runs struct {
			Steps []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Dir  string            `yaml:"working-directory"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
}

type result struct {
	code    int
	stdout  string
	summary string
	outputs map[string]string
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

func (r *runner) subst(s string, inputs map[string]string, token string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case e == "github.action_path":
			return r.root
		case e == "runner.temp":
			return r.tmp
		case e == "github.token":
			return token
		case strings.HasPrefix(e, "inputs."):
			name := strings.TrimPrefix(e, "inputs.")
			in, ok := r.meta.Inputs[name]
			if !ok {
				r.t.Fatalf("action.yml uses undeclared input %s", name)
			}
			if v, ok := inputs[name]; ok {
				return v
			}
			return r.subst(in.Default, inputs, token)
		}
		r.t.Fatalf("the simulated runner cannot evaluate %s", m)
		return ""
	})
}

var fileCmd = regexp.MustCompile(`(?s)([^\n<]+)<<(\S+)\n(.*?)\n(\S+)\n`)

func (r *runner) run(env []string, inputs map[string]string, token string) result {
	r.t.Helper()
	res := result{outputs: map[string]string{}}
	stepOut := map[string]map[string]string{}
	summary := filepath.Join(r.tmp, "summary.md")
	os.WriteFile(summary, nil, 0o644)
	for i, st := range r.meta.Runs.Steps {
		if st.Uses != "" {
			if !strings.HasPrefix(st.Uses, "actions/setup-go@") {
				r.t.Fatalf("unexpected action in action.yml: %s", st.Uses)
			}
			continue
		}
		out := filepath.Join(r.tmp, fmt.Sprintf("output-%d", i))
		os.WriteFile(out, nil, 0o644)
		cmd := exec.Command("bash", "-e", "-c", r.subst(st.Run, inputs, token))
		cmd.Dir = r.root
		if st.Dir != "" {
			cmd.Dir = r.subst(st.Dir, inputs, token)
		}
		cmd.Env = append(append(append([]string{}, r.env...), env...), "RUNNER_TEMP="+r.tmp, "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.subst(v, inputs, token))
		}
		var so strings.Builder
		cmd.Stdout, cmd.Stderr = &so, &so
		err := cmd.Run()
		res.stdout += so.String()
		b, _ := os.ReadFile(out)
		outs := map[string]string{}
		for _, m := range fileCmd.FindAllStringSubmatch(string(b), -1) {
			outs[m[1]] = m[3]
		}
		if st.ID != "" {
			stepOut[st.ID] = outs
		}
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				r.t.Fatal(err)
			}
			res.code = ee.ExitCode()
			break
		}
	}
	for name, o := range r.meta.Outputs {
		m := regexp.MustCompile(`^\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}$`).FindStringSubmatch(o.Value)
		if m == nil {
			r.t.Fatalf("output %s: cannot evaluate %q", name, o.Value)
		}
		res.outputs[name] = stepOut[m[1]][m[2]]
	}
	s, _ := os.ReadFile(summary)
	res.summary = string(s)
	return res
}

func sh(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

const loop = `---
name: deploy
description: ship releases
warrant:
  read: [the repository]
  send: [push to main]
  never:
    - force-push to main
---
# Brief
Ship.
`

func TestActionSimulated(t *testing.T) {
	for _, tool := range []string{"git", "ssh-keygen", "bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	dir := t.TempDir()
	bin := testkit.Binary(t)
	env := append(os.Environ(), "HOME="+dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
	sh(t, dir, env, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ada", "-f", filepath.Join(dir, "ada"))
	ws := filepath.Join(dir, "ws")
	os.MkdirAll(filepath.Join(ws, ".gitwarrant", "loops"), 0o755)
	git := func(args ...string) string { return sh(t, ws, env, append([]string{"git"}, args...)...) }
	gw := func(args ...string) string { return sh(t, ws, env, append([]string{bin}, args...)...) }
	git("init", "-q", "-b", "main")
	gw("init")
	os.WriteFile(filepath.Join(ws, ".gitwarrant/loops/deploy.loop.md"), []byte(loop), 0o644)
	gw("signers", "add", "ada@example.com", filepath.Join(dir, "ada.pub"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	baseSHA := git("rev-parse", "HEAD")
	// The pull request: one signed widening, one by hand on line 6.
	git("checkout", "-q", "-b", "pr")
	gw("amend", "deploy", "read", "state insurance regulations", "--yes", "--key", filepath.Join(dir, "ada"))
	p := filepath.Join(ws, ".gitwarrant/loops/deploy.loop.md")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), "send: [push to main]", "send: [push to main, push to release/*]", 1)), 0o644)
	git("commit", "-q", "-am", "widen by hand")
	headSHA := git("rev-parse", "HEAD")
	// An honest branch, pushed new.
	git("checkout", "-q", "-b", "feature", "main")
	gw("amend", "deploy", "read", "the wiki", "--yes", "--key", filepath.Join(dir, "ada"))
	featSHA := git("rev-parse", "HEAD")

	fake := &fakeGitHub{comments: map[int64]string{}}
	srv := httptest.NewServer(fake)
	defer srv.Close()

	r := &runner{t: t, root: repoRoot(t), tmp: filepath.Join(dir, "runner")}
	os.MkdirAll(r.tmp, 0o755)
	a, _ := os.ReadFile(filepath.Join(r.root, "action.yml"))
	if err := yaml.Unmarshal(a, &r.meta); err != nil {
		t.Fatal(err)
	}
	r.env = append(env, "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE="+ws, "GITHUB_API_URL="+srv.URL, "GITHUB_REPOSITORY=acme/app")
	event := func(name string, payload any) []string {
		p := filepath.Join(dir, name+".json")
		b, _ := json.Marshal(payload)
		os.WriteFile(p, b, 0o644)
		return []string{"GITHUB_EVENT_NAME=" + strings.TrimSuffix(strings.TrimSuffix(name, "-new"), "-old"), "GITHUB_EVENT_PATH=" + p}
	}
	prEvent := event("pull_request", map[string]any{"number": 7, "pull_request": map[string]any{"number": 7,
		"base": map[string]any{"sha": baseSHA}, "head": map[string]any{"sha": headSHA}}})

	// First run: fails on the hand widening, annotates its line, creates
	// the comment.
	res := r.run(prEvent, nil, "write-token")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stdout)
	}
	if want := "::error file=.gitwarrant/loops/deploy.loop.md,line=6,title=unsigned widening::add send \"push to release/*\""; !strings.Contains(res.stdout, want) {
		t.Fatalf("no annotation %q in\n%s", want, res.stdout)
	}
	if res.outputs["widenings"] != "2" || res.outputs["uncovered"] != "1" || res.outputs["chain-ok"] != "true" {
		t.Fatalf("outputs %v", res.outputs)
	}
	if !strings.Contains(res.summary, "gitwarrant: failed: 1 unsigned widening(s)") || !strings.Contains(res.summary, "signed by ada@example.com") {
		t.Fatalf("summary:\n%s", res.summary)
	}
	if !strings.Contains(res.summary, "### Warrant checks") {
		t.Fatalf("the summary lacks `gitwarrant metrics --format markdown`:\n%s", res.summary)
	}
	if len(fake.comments) != 1 || !strings.Contains(fake.comments[1], ghaction.Marker) || !strings.Contains(fake.comments[1], "push to release/*") {
		t.Fatalf("comments after the first run: %v\ncalls %v", fake.comments, fake.calls)
	}

	// Second run: the same comment is edited, none is added.
	fake.comments[1] = ghaction.Marker + "\nstale"
	res = r.run(prEvent, nil, "write-token")
	if res.code != 1 || len(fake.comments) != 1 || strings.Contains(fake.comments[1], "stale") {
		t.Fatalf("second run: exit %d, comments %v\ncalls %v", res.code, fake.comments, fake.calls)
	}
	if last := fake.calls[len(fake.calls)-1]; last != "PATCH /repos/acme/app/issues/comments/1" {
		t.Fatalf("the second run did not edit the comment: %v", fake.calls)
	}

	// A read-only token: skipped with a notice, the verdict and outputs
	// unchanged.
	before := fake.comments[1]
	delete(fake.comments, 1)
	res = r.run(prEvent, nil, "read-only")
	if res.code != 1 || !strings.Contains(res.stdout, "::notice::") || !strings.Contains(res.stdout, "comment is skipped") {
		t.Fatalf("read-only run: exit %d\n%s", res.code, res.stdout)
	}
	if len(fake.comments) != 0 || res.outputs["uncovered"] != "1" {
		t.Fatalf("read-only run wrote %v, outputs %v", fake.comments, res.outputs)
	}
	_ = before

	// A push creating a branch: compared with the default branch.
	pushNew := event("push-new", map[string]any{"before": strings.Repeat("0", 40), "after": featSHA,
		"repository": map[string]any{"default_branch": "main"}})
	res = r.run(pushNew, nil, "write-token")
	if res.code != 0 || res.outputs["widenings"] != "1" || res.outputs["uncovered"] != "0" {
		t.Fatalf("push of a new branch: exit %d outputs %v\n%s", res.code, res.outputs, res.stdout)
	}
	// A push onto an existing branch: before..after.
	pushOld := event("push-old", map[string]any{"before": baseSHA, "after": headSHA,
		"repository": map[string]any{"default_branch": "main"}})
	res = r.run(pushOld, map[string]string{"comment": "off"}, "write-token")
	if res.code != 1 || res.outputs["uncovered"] != "1" {
		t.Fatalf("push: exit %d outputs %v\n%s", res.code, res.outputs, res.stdout)
	}

	// A branch that adds a project folder of its own below the root's:
	// annotated and failed, unless the other-gates input names it.
	git("checkout", "-q", "-b", "nested", "main")
	os.MkdirAll(filepath.Join(ws, "svc/.gitwarrant/loops"), 0o755)
	os.WriteFile(filepath.Join(ws, "svc/.gitwarrant/loops/deploy.loop.md"), []byte(loop), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "a project in svc")
	nested := event("push-old", map[string]any{"before": baseSHA, "after": git("rev-parse", "HEAD"),
		"repository": map[string]any{"default_branch": "main"}})
	res = r.run(nested, map[string]string{"comment": "off"}, "write-token")
	if want := "::error file=svc/.gitwarrant,title=a warrant path this gate does not compare::another project folder"; res.code != 1 || !strings.Contains(res.stdout, want) {
		t.Fatalf("nested project: exit %d, want 1 and %q in\n%s", res.code, want, res.stdout)
	}
	if !strings.Contains(res.summary, "1 path(s) this gate does not compare") {
		t.Fatalf("nested project summary:\n%s", res.summary)
	}
	res = r.run(nested, map[string]string{"comment": "off", "other-gates": "svc/.gitwarrant\n"}, "write-token")
	if res.code != 0 {
		t.Fatalf("nested project named in other-gates: exit %d\n%s", res.code, res.stdout)
	}
	res = r.run(nested, map[string]string{"comment": "off", "other-gates": "svc"}, "write-token")
	if res.code != 1 || !strings.Contains(res.stdout, "the other-gates input: --other-gate \"svc\" does not name a .gitwarrant folder") {
		t.Fatalf("a bad other-gates input: exit %d\n%s", res.code, res.stdout)
	}
}
