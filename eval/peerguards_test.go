package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gitwarrant/gitwarrant/eval/peerguards"
	"github.com/gitwarrant/gitwarrant/internal/testkit"
)

var updatePeerGuards = flag.Bool("update-peerguards", false, "rewrite the measured figures in eval/peerguards.md from this run")

// peerGuardsDir is where the extracted corpora are read from:
// $GITWARRANT_PEERGUARDS, else testdata/peerguards.
func peerGuardsDir() string {
	if d := os.Getenv("GITWARRANT_PEERGUARDS"); d != "" {
		return d
	}
	return filepath.Join("..", "testdata", "peerguards")
}

// TestPeerGuards replays every command three other guards' own tests
// (testdata/peerguards/README.md) give a verdict for through the
// PreToolUse hook exactly as `gitwarrant install` wrote it into
// .claude/settings.json of a fresh repository (`init`, `new fix --template
// fix-bug-on-branch`, `install`), as Claude Code runs it: the command
// through sh, a Bash payload with a session_id on stdin, in the project.
// Every command a peer blocks must get ask or deny — no allow, and no
// silence (no JSON on stdout). The shares of peer-allowed commands that are
// allowed, asked, denied or met with silence are logged and kept in
// eval/peerguards.md (REPORT.md shows them).
//
// Two wirings: "installed" (plain `install`, which writes the only job loop
// as the default loop every session works under until its prompt routes
// elsewhere; docs/sessions.md) and "pinned" (`install --loop fix`).
func TestPeerGuards(t *testing.T) {
	if testing.Short() {
		t.Skip("replays some 900 hook calls per wiring")
	}
	corpora, err := peerguards.Load(peerGuardsDir())
	if errors.Is(err, peerguards.ErrAbsent) {
		t.Skipf("the peer corpora are not extracted here (%v): extract them with `go run ./eval/cmd/peerguards` (testdata/peerguards/README.md says from where)", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bin := testkit.Binary(t)
	var figures []peerFigure
	for _, w := range []struct{ name, loopFlag string }{{"installed", ""}, {"pinned", "--loop fix"}} {
		t.Run(w.name, func(t *testing.T) {
			p := newPeerRepo(t, bin, strings.Fields(w.loopFlag))
			t.Logf("hook command as install wrote it: %s", p.hook)
			for _, c := range corpora {
				answers := p.replay(c.Cases)
				var failures []string
				for i, k := range c.Cases {
					if k.Verdict == peerguards.Block && !k.ByCustomRule() && answers[i].decision != "ask" && answers[i].decision != "deny" {
						failures = append(failures, fmt.Sprintf("%s (%s): %s", k.Command, k.Source, answers[i].show()))
					}
				}
				dumpAnswers(t, w.name, c, answers)
				fig := tally(w.name, c, answers)
				figures = append(figures, fig)
				t.Logf("%s", fig.line())
				if len(failures) > 0 {
					t.Errorf("%s: %d of %d commands the peer blocks were not asked or denied:\n%s", c.Peer, len(failures), c.Count(peerguards.Block), strings.Join(failures, "\n"))
				}
			}
		})
	}
	if len(figures) == 2*len(corpora) {
		checkPeerFigures(t, figures, corpora)
	}
}

// peerRepo is a fresh repository set up as a person would, with the hook
// command install wrote.
type peerRepo struct {
	root, hook string
	env        []string
}

func newPeerRepo(t *testing.T, bin string, installArgs []string) *peerRepo {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	p := &peerRepo{root: root, env: append(os.Environ(),
		"HOME="+base, "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Test Human", "GIT_AUTHOR_EMAIL=human@example.com",
		"GIT_COMMITTER_NAME=Test Human", "GIT_COMMITTER_EMAIL=human@example.com", "NO_COLOR=1",
		"CLAUDE_PROJECT_DIR="+root)}
	run := func(name string, args ...string) {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = root, p.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	run("git", "init", "-q", "-b", "fix/issue-27")
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("# demo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("git", "add", "README.md")
	run("git", "commit", "-q", "-m", "initial")
	run(bin, "init")
	run(bin, "new", "fix", "--template", "fix-bug-on-branch")
	run(bin, append([]string{"install"}, installArgs...)...)
	p.hook = installedPreToolUse(t, filepath.Join(root, ".claude", "settings.json"))
	return p
}

// installedPreToolUse returns the one PreToolUse command that runs
// `gitwarrant hook claude` in the settings file.
func installedPreToolUse(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var cmds []string
	for _, m := range s.Hooks["PreToolUse"] {
		for _, h := range m.Hooks {
			if strings.Contains(h.Command, "gitwarrant hook claude") && (m.Matcher == "*" || m.Matcher == "Bash" || m.Matcher == "") {
				cmds = append(cmds, h.Command)
			}
		}
	}
	if len(cmds) != 1 {
		t.Fatalf("%s: want one PreToolUse command running gitwarrant hook claude for Bash, found %d:\n%s", path, len(cmds), b)
	}
	return cmds[0]
}

// peerAnswer is what the hook said to one call.
type peerAnswer struct {
	decision string // allow, ask, deny; "silent" when stdout has no JSON
	reason   string
	exit     int
	stderr   string
}

func (a peerAnswer) show() string {
	s := a.decision
	if a.exit != 0 {
		s += fmt.Sprintf(" (exit %d: %s)", a.exit, clip(strings.TrimSpace(a.stderr), 120))
	}
	return s
}

// replay runs every case through the hook command, in parallel, and
// returns the answers in case order.
func (p *peerRepo) replay(cases []peerguards.Case) []peerAnswer {
	out := make([]peerAnswer, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2*runtime.GOMAXPROCS(0); w++ {
		wg.Go(func() {
			for i := range next {
				out[i] = p.ask(cases[i].Command, i)
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// ask sends one Bash call to the hook as Claude Code does: the settings'
// command run by sh in the project, the payload on stdin.
func (p *peerRepo) ask(command string, i int) peerAnswer {
	payload, _ := json.Marshal(map[string]any{
		"session_id":      "peerguards-session",
		"transcript_path": filepath.Join(p.root, "..", "transcript.jsonl"),
		"cwd":             p.root,
		"permission_mode": "default",
		"hook_event_name": "PreToolUse",
		"tool_name":       "Bash",
		"tool_input":      map[string]any{"command": command, "description": "peer corpus"},
		"tool_use_id":     fmt.Sprintf("toolu_peer_%05d", i),
	})
	cmd := exec.Command("sh", "-c", p.hook)
	cmd.Dir, cmd.Env = p.root, p.env
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	a := peerAnswer{decision: "silent", stderr: stderr.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		a.exit = ee.ExitCode()
	} else if err != nil {
		a.exit, a.stderr = -1, err.Error()
	}
	var d struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if strings.TrimSpace(stdout.String()) != "" {
		if json.Unmarshal(stdout.Bytes(), &d) == nil && d.Out.Decision != "" {
			a.decision, a.reason = d.Out.Decision, d.Out.Reason
		} else {
			a.decision = "unparsable output"
		}
	}
	return a
}

// dumpAnswers appends every answer with its reason, one JSON object a
// line, to $GITWARRANT_PEERGUARDS_DUMP when it is set: what the classes in
// eval/peerguards.md were read from.
func dumpAnswers(t *testing.T, wiring string, c *peerguards.Corpus, answers []peerAnswer) {
	path := os.Getenv("GITWARRANT_PEERGUARDS_DUMP")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for i, k := range c.Cases {
		a := answers[i]
		if err := enc.Encode(map[string]any{"wiring": wiring, "peer": c.Peer, "case": k, "answer": a.decision, "reason": a.reason, "exit": a.exit}); err != nil {
			t.Fatal(err)
		}
	}
}

// peerFigure is one peer's answers under one wiring: for each peer
// verdict, how many calls the hook allowed, asked, denied or met with
// silence.
type peerFigure struct {
	Wiring, Peer string
	Counts       map[string]map[string]int // peer verdict → hook answer → count
}

var peerAnswers = []string{"allow", "ask", "deny", "silent"}

// customSuffix marks the rows of verdicts a peer's test configured itself.
const customSuffix = " (custom rule of the test)"

func tally(wiring string, c *peerguards.Corpus, answers []peerAnswer) peerFigure {
	f := peerFigure{Wiring: wiring, Peer: c.Peer, Counts: map[string]map[string]int{}}
	for i, k := range c.Cases {
		v := k.Verdict
		if k.ByCustomRule() {
			v += customSuffix
		}
		if f.Counts[v] == nil {
			f.Counts[v] = map[string]int{}
		}
		a := answers[i].decision
		if !slices.Contains(peerAnswers, a) {
			a = "silent"
		}
		f.Counts[v][a]++
	}
	return f
}

func (f peerFigure) row(verdict string) string {
	n := 0
	for _, a := range peerAnswers {
		n += f.Counts[verdict][a]
	}
	if n == 0 {
		return ""
	}
	var cells []string
	for _, a := range peerAnswers {
		c := f.Counts[verdict][a]
		cells = append(cells, fmt.Sprintf("%d (%.1f%%)", c, 100*float64(c)/float64(n)))
	}
	return fmt.Sprintf("| %s | %s | %s | %d | %s |", f.Wiring, f.Peer, verdict, n, strings.Join(cells, " | "))
}

func (f peerFigure) line() string {
	var parts []string
	for _, v := range []string{peerguards.Block, peerguards.Block + customSuffix, peerguards.Ask, peerguards.Allow, peerguards.Allow + customSuffix} {
		if r := f.row(v); r != "" {
			parts = append(parts, r)
		}
	}
	return strings.Join(parts, "\n")
}

// peerFiguresEnd ends the measured part of eval/peerguards.md; what follows
// it is written by hand and kept when the figures are rewritten.
const peerFiguresEnd = "<!-- end of the figures TestPeerGuards measures -->"

// checkPeerFigures compares this run's figures with eval/peerguards.md,
// rewriting them there under -update-peerguards.
func checkPeerFigures(t *testing.T, figures []peerFigure, corpora []*peerguards.Corpus) {
	var b strings.Builder
	b.WriteString("Measured by `go test ./eval/ -run TestPeerGuards` (figures rewritten with `-update-peerguards`): every command three other guards' own tests give a verdict for, sent as a Claude Code Bash call through the PreToolUse hook command that `gitwarrant install` writes into a fresh repository (`init`, `new fix --template fix-bug-on-branch`, `install` — which writes `--default-loop fix`; pinned: `install --loop fix`). Silent is no JSON on stdout. Sources, commits and licences: testdata/peerguards/README.md.\n\n")
	b.WriteString("| peer | commit | blocked | asked | allowed | not read (skipped) |\n|---|---|---:|---:|---:|---:|\n")
	for _, c := range corpora {
		fmt.Fprintf(&b, "| %s | %.12s | %d | %d | %d | %d |\n", c.Peer, c.Commit, c.Count(peerguards.Block), c.Count(peerguards.Ask), c.Count(peerguards.Allow), len(c.Skipped))
	}
	b.WriteString("\n| wiring | peer | peer verdict | calls | allow | ask | deny | silent |\n|---|---|---|---:|---:|---:|---:|---:|\n")
	for _, f := range figures {
		b.WriteString(f.line() + "\n")
	}
	b.WriteString("\n" + peerFiguresEnd + "\n")
	want := b.String()
	got, err := os.ReadFile("peerguards.md")
	if err != nil && !*updatePeerGuards {
		t.Fatalf("read eval/peerguards.md: %v", err)
	}
	measured, rest, _ := strings.Cut(string(got), peerFiguresEnd+"\n")
	if measured+peerFiguresEnd+"\n" == want {
		return
	}
	if *updatePeerGuards {
		if err := os.WriteFile("peerguards.md", []byte(want+rest), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("rewrote the figures in eval/peerguards.md; regenerate eval/REPORT.md with `go run ./eval/cmd/report`")
		return
	}
	t.Errorf("eval/peerguards.md does not hold this run's figures: rerun with `go test ./eval/ -run TestPeerGuards -update-peerguards`, then `go run ./eval/cmd/report`; this run:\n%s", want)
}
