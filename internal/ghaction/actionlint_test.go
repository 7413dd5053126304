package ghaction_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func lint(t *testing.T, root string, paths ...string) []*actionlint.Error {
	t.Helper()
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{WorkingDir: root})
	if err != nil {
		t.Fatal(err)
	}
	proj, err := actionlint.NewProject(root)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(paths, proj)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// actionWorkflow turns action.yml's composite steps into a reusable
// workflow with the same inputs, so actionlint checks the steps'
// expressions and actions as it checks a workflow's.
func actionWorkflow(t *testing.T, actionYML []byte) []byte {
	t.Helper()
	var meta struct {
		Inputs map[string]struct {
			Default string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string           `yaml:"using"`
			Steps []map[string]any `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(actionYML, &meta); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if meta.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using is %q, want composite", meta.Runs.Using)
	}
	inputs := map[string]any{}
	for name, in := range meta.Inputs {
		def := in.Default
		if strings.Contains(def, "${{") {
			def = "" // workflow_call defaults cannot use the github context
		}
		inputs[name] = map[string]any{"type": "string", "required": false, "default": def}
	}
	wf := map[string]any{
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": meta.Runs.Steps}},
	}
	b, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// actionlint is clean on action.yml (its metadata through `uses: ./`, its
// steps as a workflow) and on .github/workflows/*.
func TestActionlint(t *testing.T) {
	root := repoRoot(t)
	wfs, _ := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	if len(wfs) == 0 {
		t.Fatal("no workflows in .github/workflows")
	}
	for _, e := range lint(t, root, wfs...) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
	a, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	p := filepath.Join(tmp, "action-steps.yml")
	os.WriteFile(p, actionWorkflow(t, a), 0o644)
	for _, e := range lint(t, root, p) {
		t.Errorf("action.yml steps: %d:%d: %s [%s]", e.Line, e.Column, e.Message, e.Kind)
	}
}

// The linter is live: a workflow passing an input action.yml does not
// declare, and a step with a typo'd context, are reported.
func TestActionlintCatches(t *testing.T) {
	a, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "action.yml"), a, 0o644)
	dir := filepath.Join(root, ".github", "workflows")
	os.MkdirAll(dir, 0o755)
	p := filepath.Join(dir, "bad.yml")
	bad := "on: pull_request\njobs:\n  g:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./\n        with:\n          no-such-input: x\n      - run: echo ${{ steps.gate.outputz }}\n"
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	errs := lint(t, root, p)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "no-such-input") {
		t.Fatalf("actionlint did not report the undeclared input:\n%s", all)
	}
}
