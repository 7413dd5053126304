package route

import (
	"path/filepath"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

// templateLoops parses the shipped templates: real vocabulary for the
// agreement tests below.
func templateLoops(t *testing.T) []*loops.Loop {
	t.Helper()
	var out []*loops.Loop
	for _, tp := range templates.List() {
		l, err := loops.Parse(filepath.Join("x", tp.Name+loops.FileSuffix), tp.Body)
		if err != nil {
			t.Fatalf("template %s: %v", tp.Name, err)
		}
		out = append(out, l)
	}
	if len(out) < 5 {
		t.Fatalf("only %d templates", len(out))
	}
	return out
}

// patterns returns every warrant entry and trigger of ls.
func patterns(ls []*loops.Loop) []string {
	var out []string
	for _, l := range ls {
		for _, list := range loops.Lists {
			// Routing skips typed entries (they name tool calls, not tasks).
			out = append(out, loops.Texts(l.Warrant.Natural().List(list))...)
		}
		out = append(out, loops.Texts(l.Triggers)...)
	}
	return out
}

var agreementTasks = []string{
	"draft an appeal for my denied claim",
	"git push origin main",
	"git push --force origin main",
	"rm -rf build && make release",
	"email the client a follow-up about the invoice",
	"publish the release notes",
	"tag the release and push tags",
	"update the changelog; bump the version",
	"read the incident timeline",
	"contacting the insurer",
	"write docs for the new API",
	"upgrade lodash to 4.17.21",
	"review pull request 42",
	"store the api token in memory",
	"plan next week",
	"accepting a settlement",
}

// TestStemKeysAgreeWithSameWord: sharing a stem key is exactly SameWord.
func TestStemKeysAgreeWithSameWord(t *testing.T) {
	var words []string
	for _, p := range append(patterns(templateLoops(t)), agreementTasks...) {
		words = append(words, loops.ContentWords(p)...)
	}
	words = append(words, "quotes", "quote", "contacting", "contact", "wiring", "wire", "policies", "policy", "shipped", "ship", "bus", "buses", "denied", "deny")
	share := func(a, b string) bool {
		for _, x := range loops.StemKeys(a) {
			for _, y := range loops.StemKeys(b) {
				if x == y {
					return true
				}
			}
		}
		return false
	}
	for _, a := range words {
		for _, b := range words {
			if share(a, b) != loops.SameWord(a, b) {
				t.Errorf("%q ~ %q: keys say %v, SameWord says %v", a, b, share(a, b), loops.SameWord(a, b))
			}
		}
	}
}

// TestRelatedAgreesWithMatchCautious: routing's word-level matcher is the
// warrant's cautious matcher plus the shared-word rule. Whenever an
// alternative matches cautiously and shares a content word, routing counts
// it; and routing counts nothing the cautious matcher would not.
func TestRelatedAgreesWithMatchCautious(t *testing.T) {
	pats := append(patterns(templateLoops(t)), "git push *", "rm -rf *", "anything", "deploy to production", "secrets, tokens, or passwords")
	n := 0
	for _, task := range agreementTasks {
		tk := newTask(task)
		for _, p := range pats {
			for _, alt := range loops.Alternatives(p) {
				shares := len(tk.sharedWords(alt)) > 0
				want := shares && loops.MatchCautious(alt, task)
				if got := tk.relatedAlt(alt); got != want {
					t.Errorf("task %q, pattern %q: routing %v, cautious matcher (with a shared word) %v", task, alt, got, want)
				}
				if want {
					n++
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d matching pairs: the corpus does not exercise the matcher", n)
	}
	t.Logf("%d matching pairs agree", n)
}
