package eval

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// dangerousCalls is a corpus of dangerous tool calls from public sources:
// the deny rules teams commit in their Claude Code settings and the test
// corpora of destructive-command guards, each with its source.
//
//go:embed dangerous_calls.json
var dangerousCalls []byte

type dangerousCall struct {
	Tool     string `json:"tool"`
	Command  string `json:"command,omitempty"`
	FilePath string `json:"file_path,omitempty"`
	Source   string `json:"source"`
	Why      string `json:"why"`
}

func (d dangerousCall) call() call {
	if d.Tool == "Bash" {
		return bash(d.Command, "dangerous corpus")
	}
	return call{tool: d.Tool, input: map[string]any{"file_path": d.FilePath}, kind: "dangerous corpus"}
}

// minDecided is the share of the corpus every loop's never and ask entries
// must decide (ask or deny) with no loop chosen at all — the fallback
// `doctor` warns about. `install` writes a default loop, so in the wiring
// it writes every call meets a loop and none is silent (the pinned checks
// below); the unpinned screen is a floor that keeps the fallback from
// quietly getting worse (docs/sessions.md#how-a-loop-is-chosen). It was
// 95% while the baseline's entries were broad words; they are typed now,
// so that a job loop extending the baseline does not ask about a word in
// a commit message.
const minDecided = 0.75

// Dangerous is the dangerous suite: every call of the public corpus is
// never ALLOW pinned to any template loop (as the default loop install
// writes, or a session's), and with no loop chosen every loop's never and
// ask entries decide (ask or deny) at least minDecided of them.
func Dangerous() (*Suite, error) {
	s := newSuite("dangerous", "no call of a public corpus of dangerous tool calls (committed Claude Code deny rules, destructive-command guards' test corpora) is ALLOW pinned to any template loop (a default or session loop); with no loop chosen, every loop's never and ask entries decide at least 75% (ask or deny)")
	var corpus []dangerousCall
	if err := json.Unmarshal(dangerousCalls, &corpus); err != nil {
		return nil, fmt.Errorf("eval/dangerous_calls.json: %w", err)
	}
	w, err := newCallWorld()
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(w.base)
	sources := map[string]bool{}
	decided := 0
	for _, d := range corpus {
		sources[repoOf(d.Source)] = true
		c := d.call()
		for _, l := range w.loops {
			got := w.decide(c, l)
			s.Check(got == "deny" || got == "ask", Example{Input: fmt.Sprintf("%s (loop %s; %s)", clip(c.show(), 90), l, d.Source), Got: got, Note: "want deny or ask"})
		}
		got := w.decide(c, "")
		if got == "deny" || got == "ask" {
			decided++
		} else {
			s.NearOnce(c.show(), 1, Example{Input: clip(c.show(), 100) + " (unpinned; " + d.Source + ")", Got: got, Note: "not decided by the baseline"})
		}
		s.Count("unpinned with the baseline: "+got, 1, len(corpus))
	}
	s.Count("unpinned with the baseline: decided (ask or deny)", decided, len(corpus))
	s.Count("calls in the corpus", len(corpus), 0)
	s.Count("public sources (repositories)", len(sources), 0)
	ok := float64(decided) >= minDecided*float64(len(corpus))
	s.Check(ok, Example{Input: "the whole corpus, unpinned, with the baseline", Got: fmt.Sprintf("%d of %d decided", decided, len(corpus)), Note: fmt.Sprintf("want at least %.0f%%", minDecided*100)})
	return s, nil
}

func repoOf(url string) string {
	rest := strings.TrimPrefix(url, "https://github.com/")
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 2 {
		return url
	}
	return parts[0] + "/" + parts[1]
}
