package review

import (
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

func ask(loop, action, target string) chain.Entry {
	return chain.Entry{Kind: chain.KindCheck, Loop: loop, Action: action, Target: target, Verdict: "ask", Via: "cli", Rule: "default: unlisted means ask"}
}

// An ask a rule made — a baseline's ask, an opaque call — is never
// offered, even when the loop's own screen finds nothing against it.
func TestCollectOffersOnlySilence(t *testing.T) {
	var es []chain.Entry
	for _, rule := range []string{"ask: npm publish", "baseline: publishing packages", "opaque: never allowed", "partial: rm -rf build"} {
		for i := 0; i < 3; i++ {
			e := ask("a", "send", rule)
			e.Rule = rule
			es = append(es, e)
		}
	}
	if got := Collect(es, Options{}, selfReported, func(string, string, string, *chain.Entry) string { return "" }, nil); len(got) != 0 {
		t.Fatalf("rule-made asks were offered: %+v", got)
	}
}

func selfReported(e *chain.Entry) (string, string, bool) { return e.Action, e.Target, true }

func TestCollectSkipsHeldAmendedAndRejected(t *testing.T) {
	es := []chain.Entry{
		ask("a", "read", "x"), ask("a", "read", "x"), ask("a", "read", "x"),
		ask("a", "send", "held"), ask("a", "send", "held"),
		ask("a", "draft", "once"),
		ask("a", "draft", "done"), ask("a", "draft", "done"),
		{Kind: chain.KindAmend, Loop: "a", Extra: map[string]any{"list": "draft", "op": "add", "pattern": "done"}},
		ask("a", "change", "no"), ask("a", "change", "no"),
		{Kind: chain.KindNote, Loop: "a", Extra: map[string]any{RejectedKey: Item{Loop: "a", List: "change", Op: "add", Pattern: "no"}.Key()}},
		ask("b", "read", "y"), ask("b", "read", "y"),
	}
	screen := func(loop, list, pattern string, _ *chain.Entry) string {
		if pattern == "held" {
			return "the ask list matches"
		}
		return ""
	}
	got := Collect(es, Options{}, selfReported, screen, func(string) string { return "" })
	if len(got) != 2 || got[0].Pattern != "x" || got[0].Count != 3 || got[1].Pattern != "y" {
		t.Fatalf("got %+v", got)
	}
	if got := Collect(es, Options{Loop: "b"}, selfReported, screen, nil); len(got) != 1 || got[0].Loop != "b" {
		t.Fatalf("--loop b: %+v", got)
	}
	if got := Collect(es, Options{Min: 4}, selfReported, screen, nil); len(got) != 0 {
		t.Fatalf("--min 4: %+v", got)
	}
}

func TestGeneralize(t *testing.T) {
	for in, want := range map[string]string{
		"Bash(go generate ./...)": "Bash(go generate *)",
		"Bash(npm run lint)":      "Bash(npm run *)",
		"Bash(make -j4 all)":      "Bash(make *)",
		"Bash(ls src/)":           "Bash(ls *)",
		"Bash(ls)":                "",
		"Read(src/a.go)":          "",
		"appeal letter":           "",
	} {
		got, ok := Generalize(in)
		if got != want || ok != (want != "") {
			t.Errorf("Generalize(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
}
