package route

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/templates"
)

func items(texts ...string) []loops.Item {
	out := make([]loops.Item, len(texts))
	for i, t := range texts {
		out[i] = loops.Item{Text: t, Line: i + 1}
	}
	return out
}

// The guide's appeal loop.
func appeal() *loops.Loop {
	return &loops.Loop{
		Name:        "appeal",
		Description: "Build the appeal, cite the policy — stop before send.",
		Triggers:    items("insurance appeal, appeal a denial", "denied claim, denial letter"),
		Warrant: loops.Warrant{
			Read:  items("policy documents", "denial letter", "claim correspondence"),
			Draft: items("appeal letter", "evidence summary"),
			Ask:   items("contacting the insurer", "requesting new records"),
			Never: items("accepting or rejecting a settlement"),
		},
	}
}

func newsletter() *loops.Loop {
	return &loops.Loop{
		Name:        "newsletter",
		Description: "Write the weekly email newsletter for subscribers.",
		Warrant: loops.Warrant{
			Read:  items("email archive"),
			Draft: items("email drafts", "newsletter copy"),
			Send:  items("email to the list"),
			Never: items("anything"),
		},
	}
}

func names(cs []Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Loop.Name)
	}
	return out
}

func TestMatchGuideExample(t *testing.T) {
	cs := Match([]*loops.Loop{appeal(), newsletter()}, "draft an appeal for my denied claim")
	if len(cs) != 1 || cs[0].Loop.Name != "appeal" {
		t.Fatalf("candidates %v, want [appeal]", names(cs))
	}
	c := cs[0]
	want := []string{"name: appeal", "trigger: denied claim, denial letter"}
	if !reflect.DeepEqual(c.Why[:2], want) {
		t.Errorf("why %q, want it to start %q", c.Why, want)
	}
	if c.Score < NameWeight+TriggerWeight {
		t.Errorf("score %d", c.Score)
	}
}

func TestNoLoopCoversUnrelatedTask(t *testing.T) {
	for _, task := range []string{"wire funds to a vendor", "", "the a of to", "do it now"} {
		if cs := Match([]*loops.Loop{appeal(), newsletter()}, task); len(cs) != 0 {
			t.Errorf("%q routed to %v", task, names(cs))
		}
	}
}

// TestOneSharedWordNeverRoutes: the guide's rule. The task shares only
// "email" with the loop's description and with several warrant entries.
func TestOneSharedWordNeverRoutes(t *testing.T) {
	l := newsletter()
	l.Name = "weekly-digest" // so the word is not in the name
	for _, task := range []string{"email", "answer an email", "emails", "emailing the landlord"} {
		c := Score(l, task)
		if c.Score >= Threshold {
			t.Errorf("%q scored %d on one shared word: %q", task, c.Score, c.Why)
		}
		if c.Score == 0 {
			t.Errorf("%q: the shared word scored nothing at all (test would be vacuous)", task)
		}
	}
	// Two distinct shared words are real evidence.
	if c := Score(l, "email the weekly newsletter"); c.Score < Threshold {
		t.Errorf("two shared words scored only %d: %q", c.Score, c.Why)
	}
}

func TestAllFillerEntryDoesNotCount(t *testing.T) {
	l := &loops.Loop{Name: "x", Warrant: loops.Warrant{Never: items("anything"), Ask: items("*")}}
	if c := Score(l, "wire funds to a vendor"); c.Score != 0 {
		t.Fatalf("all-filler entries scored %d: %q", c.Score, c.Why)
	}
}

func TestTriggerScoresOncePerItem(t *testing.T) {
	l := &loops.Loop{Name: "books", Triggers: items("invoice, billing, or payment", "month-end close")}
	c := Score(l, "billing invoice payment")
	if c.Score != TriggerWeight || len(c.Why) != 1 {
		t.Fatalf("score %d why %q, want one trigger", c.Score, c.Why)
	}
}

func TestNameIsReadAsAPhraseOnWordBoundaries(t *testing.T) {
	l := &loops.Loop{Name: "weekly-plan"}
	if c := Score(l, "make the weekly plan"); c.Score != NameWeight {
		t.Errorf("name phrase: score %d %q", c.Score, c.Why)
	}
	ops := &loops.Loop{Name: "ops"}
	if c := Score(ops, "stops the shop"); c.Score != 0 {
		t.Errorf("'ops' matched inside other words: %d %q", c.Score, c.Why)
	}
}

func TestWarrantPointsAreCapped(t *testing.T) {
	l := &loops.Loop{Name: "z", Warrant: loops.Warrant{
		Read: items("red apples", "green pears", "yellow bananas", "purple plums", "orange oranges"),
	}}
	c := Score(l, "red apples green pears yellow bananas purple plums orange oranges")
	if c.Score != WarrantCap {
		t.Errorf("score %d, want the cap %d: %q", c.Score, WarrantCap, c.Why)
	}
}

func TestMatchOrdersAndKeepsTopFew(t *testing.T) {
	var ls []*loops.Loop
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		ls = append(ls, &loops.Loop{Name: n, Triggers: items("quarterly report")})
	}
	best := &loops.Loop{Name: "zz", Triggers: items("quarterly report", "board deck")}
	ls = append(ls, best)
	got := names(Match(ls, "quarterly report for the board deck"))
	if want := []string{"zz", "a", "b"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	rand.New(rand.NewSource(1)).Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
	if again := names(Match(ls, "quarterly report for the board deck")); !reflect.DeepEqual(again, got) {
		t.Fatalf("order depends on input order: %v vs %v", again, got)
	}
}

// TestSingleWordTasksRouteOnlyByNameOrTrigger generates loops from a shared
// vocabulary and holds every one-word task to the rule that a single shared
// word reaches the threshold only through the name or a trigger.
func TestSingleWordTasksRouteOnlyByNameOrTrigger(t *testing.T) {
	vocab := strings.Fields("email invoice report deploy ticket calendar contract payment release customer vendor draft review budget")
	r := rand.New(rand.NewSource(7))
	pick := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = vocab[r.Intn(len(vocab))]
		}
		return strings.Join(ws, " ")
	}
	var ls []*loops.Loop
	for i := 0; i < 60; i++ {
		l := &loops.Loop{
			Name:        fmt.Sprintf("loop-%d", i),
			Description: pick(6),
			Warrant: loops.Warrant{Read: items(pick(1), pick(2)), Draft: items(pick(1), pick(2)),
				Send: items(pick(1)), Ask: items(pick(2)), Never: items(pick(1))},
		}
		if i%3 == 0 {
			l.Triggers = items(pick(2))
		}
		ls = append(ls, l)
	}
	for _, w := range vocab {
		for _, l := range ls {
			c := Score(l, w)
			if c.Score < Threshold {
				continue
			}
			if !strings.HasPrefix(c.Why[0], "name:") && !strings.HasPrefix(c.Why[0], "trigger:") {
				t.Errorf("%q routed to %s on one word: %d %q", w, l.Name, c.Score, c.Why)
			}
		}
	}
}

// BenchmarkMatch50 routes one hook-sized task against 50 loops: the ten
// shipped templates, five times each under different names (the hook's
// routing cost per tool call, loops already parsed).
func BenchmarkMatch50(b *testing.B) {
	var ls []*loops.Loop
	for _, tp := range templates.List() {
		for i := 0; i < 5; i++ {
			l, err := loops.Parse(fmt.Sprintf("x/%s-%d.loop.md", tp.Name, i), []byte(strings.Replace(string(tp.Body), "name: "+tp.Name, fmt.Sprintf("name: %s-%d", tp.Name, i), 1)))
			if err != nil {
				b.Fatal(err)
			}
			ls = append(ls, l)
		}
	}
	for b.Loop() {
		Match(ls, "git push origin main after drafting the appeal letter")
	}
}
