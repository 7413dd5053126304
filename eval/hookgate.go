package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/cli"
	"github.com/gitwarrant/gitwarrant/internal/templates"
	"github.com/gitwarrant/gitwarrant/internal/term"
)

// Hookgate is the hookgate suite (docs/design.md#enforcement-surfaces, "Claude hook"): the real
// `gitwarrant hook claude` command, run in-process through cli.Main with
// buffers for streams, against a real project on disk.
//
//   - In pinned mode (--loop or --strict) no malformed, truncated,
//     oversized, wrong-typed or unreadable payload, no missing or broken
//     project and no bad loop name is ever ALLOW or silent — even when the
//     pinned loop allows anything.
//   - Unknown tools check as send: under a loop that allows everything but
//     send, they are never ALLOW; no tool is checked under a verb lower than
//     its own.
//   - Writes into the project dir, the git hooks and the hook settings are
//     DENY under every loop, even one whose change list is [anything], and
//     with no loop pinned at all.
func Hookgate() (*Suite, error) {
	s := newSuite("hookgate", "pinned hooks (--loop/--strict) answer ASK or DENY, never ALLOW or silence, for every malformed, truncated, oversized, wrong-typed or unknown-tool payload, missing or broken project and bad loop name; writes into the project dir, git hooks or hook settings are DENY under every loop, even change: [anything]")
	h, err := newHookProject()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(h.base)
	h.malformed(s)
	h.wrongTyped(s)
	h.unknownTools(s)
	h.verbIsolation(s)
	h.brokenProjects(s)
	h.badLoopNames(s)
	h.protectedWrites(s)
	return s, nil
}

// hookProject is a temp Git work tree with a .gitwarrant project holding
// every template plus loops built to make a fail-open visible.
type hookProject struct {
	base, root string
	git        bool
	loopNames  []string // every loadable loop
}

// gateLoops are loops whose warrants make a wrong ALLOW stand out: "wide"
// allows everything, so any answer but ALLOW on a valid call is the gate's
// doing; the only-* loops allow one verb each.
var gateLoops = map[string]string{
	"wide":        "read: [anything]\n  draft: [anything]\n  change: [anything]\n  send: [anything]",
	"nosend":      "read: [anything]\n  draft: [anything]\n  change: [anything]\n  send: []",
	"change-all":  "change: [anything]",
	"only-read":   "read: [anything]",
	"only-draft":  "draft: [anything]",
	"only-change": "change: [anything]",
	"only-send":   "send: [anything]",
}

var gateLoopOrder = []string{"wide", "nosend", "change-all", "only-read", "only-draft", "only-change", "only-send"}

func loopFile(name, warrant string) string {
	return "---\nname: " + name + "\ndescription: eval loop\nversion: 1\nwarrant:\n  " + warrant + "\n---\n\n# Brief\n\nEval.\n"
}

func newHookProject() (*hookProject, error) {
	base, err := os.MkdirTemp("", "gitwarrant-eval-hook-")
	if err != nil {
		return nil, fmt.Errorf("make a temp dir: %w; check TMPDIR", err)
	}
	h := &hookProject{base: base, root: filepath.Join(base, "repo")}
	loopsDir := filepath.Join(h.root, ".gitwarrant", "loops")
	for _, d := range []string{loopsDir, filepath.Join(h.root, ".gitwarrant", "record"), filepath.Join(h.root, "sub"), filepath.Join(base, "empty")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		cmd := exec.Command("git", "init", "-q", h.root)
		h.git = cmd.Run() == nil
	}
	write := func(name, body string) error {
		return os.WriteFile(filepath.Join(loopsDir, name+".loop.md"), []byte(body), 0o644)
	}
	for _, t := range templates.List() {
		if err := write(t.Name, string(t.Body)); err != nil {
			return nil, err
		}
		h.loopNames = append(h.loopNames, t.Name)
	}
	for _, n := range gateLoopOrder {
		if err := write(n, loopFile(n, gateLoops[n])); err != nil {
			return nil, err
		}
		h.loopNames = append(h.loopNames, n)
	}
	if err := writeBrokenProject(filepath.Join(base, "brokenrepo", ".gitwarrant", "loops")); err != nil {
		return nil, err
	}
	if err := os.Symlink(filepath.Join(h.root, ".gitwarrant"), filepath.Join(h.root, "lnk")); err != nil {
		return nil, err
	}
	return h, nil
}

// answer is what the hook said: a decision, or silence.
type answer struct {
	decision string // allow, ask, deny; "" when silent
	exit     int
	raw      string
}

// run runs `gitwarrant hook claude args…` in-process with stdin and an
// environment whose CLAUDE_PROJECT_DIR is projectDir.
func (h *hookProject) run(stdin []byte, args []string, projectDir, cwd string, env map[string]string) answer {
	var out, errb bytes.Buffer
	app := &cli.App{
		IO: &term.Streams{In: bytes.NewReader(stdin), Out: &out, Err: &errb, NoColor: true},
		Getenv: func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			switch k {
			case "CLAUDE_PROJECT_DIR":
				return projectDir
			case "HOME":
				return h.base
			}
			return ""
		},
		Cwd: cwd,
		Now: func() time.Time { return time.Date(2026, 7, 3, 10, 15, 0, 0, time.UTC) },
	}
	code := cli.Main(context.Background(), app, append([]string{"hook", "claude"}, args...))
	a := answer{exit: code, raw: strings.TrimSpace(out.String())}
	if a.raw == "" {
		return a
	}
	var d struct {
		Out struct {
			Decision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		a.decision = "unparsable output"
		return a
	}
	a.decision = d.Out.Decision
	return a
}

// expect runs one call and checks the answer is one of want.
func (h *hookProject) expect(s *Suite, what string, stdin []byte, args []string, projectDir, cwd string, env map[string]string, want ...string) {
	a := h.run(stdin, args, projectDir, cwd, env)
	got := a.decision
	if got == "" {
		got = "silent (pass-through)"
	}
	ok := a.exit == 0 && slices.Contains(want, got)
	in := strings.ReplaceAll(string(stdin), h.base, "$TMP")
	ex := Example{Input: fmt.Sprintf("%s: hook claude %s ← %s", what, strings.ReplaceAll(strings.Join(args, " "), h.base, "$TMP"), clip(in, 90)),
		Got: fmt.Sprintf("%s (exit %d)", got, a.exit), Note: "want " + strings.Join(want, " or ")}
	s.Check(ok, ex)
	if ok && got == "ask" && slices.Contains(args, "wide") {
		ex.Note = "failed closed to ask under a loop that allows anything"
		s.NearOnce(category(what), 1, ex)
	}
}

// brokenLoops are loop files that must not load (spec and docs/loop-format.md#the-warrant).
var brokenLoops = []string{"broken", "mismatch", "unknown", "big", "badutf8", "version2", "sym"}

// writeBrokenProject writes a project whose loops dir holds a good wide
// loop and one loop per way a loop file can fail to load.
func writeBrokenProject(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bodies := map[string]string{
		"wide":     loopFile("wide", gateLoops["wide"]),
		"broken":   "---\nname: broken\nwarrant: [\n---\n",
		"mismatch": loopFile("other", gateLoops["wide"]),
		"unknown":  strings.Replace(loopFile("unknown", gateLoops["wide"]), "warrant:", "warant:", 1),
		"big":      loopFile("big", gateLoops["wide"]) + strings.Repeat("x", 210000),
		"badutf8":  loopFile("badutf8", gateLoops["wide"]) + "\xff\xfe\n",
		"version2": strings.Replace(loopFile("version2", gateLoops["wide"]), "version: 1", "version: 2", 1),
	}
	for _, n := range append([]string{"wide"}, brokenLoops[:6]...) {
		if err := os.WriteFile(filepath.Join(dir, n+".loop.md"), []byte(bodies[n]), 0o644); err != nil {
			return err
		}
	}
	return os.Symlink(filepath.Join(dir, "wide.loop.md"), filepath.Join(dir, "sym.loop.md"))
}
