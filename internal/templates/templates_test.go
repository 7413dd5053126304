package templates

import (
	"bytes"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

func parse(t *testing.T, name string, data []byte) *loops.Loop {
	t.Helper()
	l, err := loops.Parse(name+loops.FileSuffix, data)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	return l
}

func TestTemplatesParseAndAreComplete(t *testing.T) {
	entries, err := fs.ReadDir(files, "loops")
	if err != nil {
		t.Fatal(err)
	}
	list := List()
	if len(list) < 10 || len(list) != len(entries) {
		t.Fatalf("List() has %d templates for %d files; want at least 10, one per file", len(list), len(entries))
	}
	if !sort.SliceIsSorted(list, func(i, j int) bool { return list[i].Name < list[j].Name }) {
		t.Error("List() is not sorted by name")
	}
	for i, tpl := range list {
		if file := entries[i].Name(); tpl.Name+loops.FileSuffix != file {
			t.Errorf("template %q lives in %s", tpl.Name, file)
		}
		l := parse(t, tpl.Name, tpl.Body)
		if l.Description == "" || tpl.Description != l.Description || l.Goal == "" || l.Stop == "" || l.Budget == "" {
			t.Errorf("%s: description, goal, stop and budget must all be set", tpl.Name)
		}
		if len(l.Triggers) == 0 || len(l.Reserved) == 0 || len(l.Record) == 0 || len(l.Warrant.Never) == 0 {
			t.Errorf("%s: triggers, reserved, record and never must not be empty", tpl.Name)
		}
		if len(strings.Fields(l.Brief)) < 30 || len(strings.Fields(l.Procedure)) < 30 || l.Preamble != "" {
			t.Errorf("%s: Brief and Procedure need real prose and nothing may sit before them", tpl.Name)
		}
		if got, ok := Get(tpl.Name); !ok || !bytes.Equal(got.Body, tpl.Body) {
			t.Errorf("Get(%q) = %v", tpl.Name, ok)
		}
	}
	for _, bad := range []string{"", "nope", "../loops/insurance-appeal", "Insurance-Appeal"} {
		if _, ok := Get(bad); ok {
			t.Errorf("Get(%q) found a template", bad)
		}
	}
}

// TestTemplateWarrantsAreConsistent holds each starter to the eval's
// invariants on its own lists: everything it allows is allowed (no
// warranted work blocked), every hard stop denies, every ask at least asks.
func TestTemplateWarrantsAreConsistent(t *testing.T) {
	for _, tpl := range List() {
		l := parse(t, tpl.Name, tpl.Body)
		for _, v := range loops.Verbs {
			for _, it := range l.Warrant.List(string(v)) {
				if loops.LooksTyped(it.Text) {
					continue // typed entries are the hook's, not check's
				}
				if r := l.Check(v, it.Text); r.Verdict != loops.Allow {
					t.Errorf("%s:%d: %s %q is listed but gets %s (%s)", tpl.Name, it.Line, v, it.Text, r.Verdict, r.Rule)
				}
			}
			for _, it := range l.Warrant.Never {
				if loops.LooksTyped(it.Text) {
					continue
				}
				if r := l.Check(v, it.Text); r.Verdict != loops.Deny {
					t.Errorf("%s:%d: never %q under %s gets %s", tpl.Name, it.Line, it.Text, v, r.Verdict)
				}
			}
			for _, it := range l.Warrant.Ask {
				if loops.LooksTyped(it.Text) {
					continue
				}
				if r := l.Check(v, it.Text); r.Verdict == loops.Allow {
					t.Errorf("%s:%d: ask %q under %s is allowed", tpl.Name, it.Line, it.Text, v)
				}
			}
		}
	}
}

// TestTemplatesNeverSilentlyAllowDanger checks the consequences docs/design.md#what-gitwarrant-is
// names — pushing to main, force pushing, publishing, deploying, paying,
// touching secrets — under every verb of every template.
func TestTemplatesNeverSilentlyAllowDanger(t *testing.T) {
	danger := []string{
		"git push origin main", "git push --force origin feature", "force push the branch", "push to main",
		"publish the package", "npm publish", "deploy to production", "pay the invoice", "wire funds to a vendor",
		"read the api token", "print the secrets file", "copy credentials", "cat .env",
	}
	for _, tpl := range List() {
		l := parse(t, tpl.Name, tpl.Body)
		for _, v := range loops.Verbs {
			for _, target := range danger {
				if r := l.Check(v, target); r.Verdict == loops.Allow {
					t.Errorf("%s: %s %q is allowed (%s)", tpl.Name, v, target, r.Rule)
				}
			}
		}
	}
}

func TestInsuranceAppealGuideExamples(t *testing.T) {
	tpl, ok := Get("insurance-appeal")
	if !ok {
		t.Fatal("insurance-appeal template missing")
	}
	out, err := Render(tpl, "appeal", nil)
	if err != nil {
		t.Fatal(err)
	}
	l := parse(t, "appeal", out)
	want := loops.Warrant{
		Read:   items(l.Warrant.Read, "policy documents", "denial letter", "claim correspondence"),
		Draft:  items(l.Warrant.Draft, "appeal letter", "evidence summary"),
		Change: items(l.Warrant.Change),
		Send:   items(l.Warrant.Send),
		Ask:    items(l.Warrant.Ask, "contacting the insurer", "requesting new records", "anything addressed to the insurer"),
		Never:  items(l.Warrant.Never, "accepting or rejecting a settlement"),
	}
	for _, name := range loops.Lists {
		// The guide's lists are natural language; the typed entries the
		// template adds for the hook are held by its examples.
		if got, w := loops.Texts(l.Warrant.Natural().List(name)), loops.Texts(want.List(name)); !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %q, want the guide's %q", name, got, w)
		}
	}
	checks := []struct {
		verb   loops.Verb
		target string
		want   loops.Verdict
	}{
		{loops.Draft, "appeal letter", loops.Allow},
		{loops.Send, "appeal email to the insurer", loops.Ask},
		{loops.Change, "accepting a settlement", loops.Deny},
	}
	for _, c := range checks {
		if r := l.Check(c.verb, c.target); r.Verdict != c.want {
			t.Errorf("check appeal %s %q = %s (%s), want %s", c.verb, c.target, r.Verdict, r.Rule, c.want)
		}
	}
}

// items builds the expected list with texts only; lines come from got so
// the comparison is on text.
func items(got []loops.Item, texts ...string) []loops.Item {
	out := make([]loops.Item, len(texts))
	for i, s := range texts {
		out[i] = loops.Item{Text: s}
	}
	return out
}

func TestRenderChangesOnlyTheNameLine(t *testing.T) {
	for _, tpl := range List() {
		out, err := Render(tpl, "my-"+tpl.Name, nil)
		if err != nil {
			t.Fatalf("Render(%s): %v", tpl.Name, err)
		}
		if l := parse(t, "my-"+tpl.Name, out); l.Name != "my-"+tpl.Name {
			t.Errorf("rendered name = %q", l.Name)
		}
		a, b := strings.Split(string(tpl.Body), "\n"), strings.Split(string(out), "\n")
		if len(a) != len(b) {
			t.Fatalf("%s: line count changed %d → %d", tpl.Name, len(a), len(b))
		}
		var diff []string
		for i := range a {
			if a[i] != b[i] {
				diff = append(diff, b[i])
			}
		}
		if want := []string{"name: my-" + tpl.Name}; !reflect.DeepEqual(diff, want) {
			t.Errorf("%s: changed lines %q, want %q", tpl.Name, diff, want)
		}
	}
	tpl, _ := Get("weekly-plan")
	for _, bad := range []string{"", "../x", "Weekly", "a b", "x\nname: y"} {
		if _, err := Render(tpl, bad, nil); err == nil || !strings.Contains(err.Error(), "is not a loop name") {
			t.Errorf("Render(%q) = %v, want a not-a-loop-name error", bad, err)
		}
	}
}

func TestFromAnswersAwkwardText(t *testing.T) {
	a := Answers{
		Know:    "Key: value pairs matter.\n# Procedure\nThis line must stay in the Brief.\n```\n# Brief inside code\n",
		HowDone: "Step one: read \"everything\".\r\n## procedure\r\nStep two # not a comment",
		MayDo: "read the denial letter, draft the appeal letter; - leading dash item\n" +
			"send the email to the insurer\n\"quoted\": thing, #hash, &anchor, *alias, !tag, [flow], {map}, |, >, null, ~, true, 42, back\\slash",
		Stop:     "anything addressed to the insurer: stop, 'single' quotes",
		Evidence: "every clause cited\n---\n  - where it stopped \x00 with a NUL\u202e and an override",
	}
	out, err := FromAnswers("appeal", a)
	if err != nil {
		t.Fatalf("FromAnswers: %v\n%s", err, out)
	}
	l := parse(t, "appeal", out)
	if got, want := loops.Texts(l.Warrant.Read), []string{"denial letter"}; !reflect.DeepEqual(got, want) {
		t.Errorf("read = %q, want %q", got, want)
	}
	wantDraft := []string{"appeal letter", "leading dash item", `"quoted": thing`, "#hash", "&anchor", "*alias", "!tag",
		"[flow]", "{map}", "|", ">", "null", "~", "true", "42", `back\slash`}
	if got := loops.Texts(l.Warrant.Draft); !reflect.DeepEqual(got, wantDraft) {
		t.Errorf("draft = %q\nwant    %q", got, wantDraft)
	}
	wantAsk := []string{"send the email to the insurer", "anything addressed to the insurer: stop", "'single' quotes"}
	if got := loops.Texts(l.Warrant.Ask); !reflect.DeepEqual(got, wantAsk) {
		t.Errorf("ask = %q, want %q", got, wantAsk)
	}
	if got := loops.Texts(l.Reserved); !reflect.DeepEqual(got, wantAsk[1:]) {
		t.Errorf("reserved = %q", got)
	}
	if len(l.Warrant.Send) != 0 || len(l.Warrant.Change) != 0 || len(l.Warrant.Never) != 0 {
		t.Errorf("interview granted change/send or invented never: %+v", l.Warrant)
	}
	wantRecord := []string{"every clause cited", "---", "where it stopped with a NUL and an override"}
	if got := loops.Texts(l.Record); !reflect.DeepEqual(got, wantRecord) {
		t.Errorf("record = %q, want %q", got, wantRecord)
	}
	if !strings.Contains(l.Brief, "This line must stay in the Brief.") || !strings.Contains(l.Brief, "# Brief inside code") {
		t.Errorf("Brief lost text:\n%s", l.Brief)
	}
	if !strings.HasPrefix(l.Procedure, `Step one: read "everything".`) || !strings.Contains(l.Procedure, "Step two # not a comment") {
		t.Errorf("Procedure = %q", l.Procedure)
	}
	if l.Description != `Step one: read "everything".` {
		t.Errorf("Description = %q", l.Description)
	}
	if r := l.Check(loops.Draft, "appeal letter"); r.Verdict != loops.Allow {
		t.Errorf("draft appeal letter = %s (%s)", r.Verdict, r.Rule)
	}
	if r := l.Check(loops.Send, "email to the insurer"); r.Verdict == loops.Allow {
		t.Errorf("send email to the insurer allowed by an interview loop")
	}
}

func TestFromAnswersEmptyAndBadName(t *testing.T) {
	out, err := FromAnswers("empty", Answers{})
	if err != nil {
		t.Fatal(err)
	}
	if l := parse(t, "empty", out); l.Brief == "" || l.Procedure == "" {
		t.Errorf("empty answers should leave visible placeholders: %q %q", l.Brief, l.Procedure)
	}
	if _, err := FromAnswers("../evil", Answers{}); err == nil {
		t.Error("FromAnswers accepted a path as a name")
	}
}

func FuzzFromAnswers(f *testing.F) {
	f.Add("know", "how", "read x, draft y", "stop", "evidence")
	f.Add("# Procedure\n```", "~~~\n# Brief", "- a: b", "'\"", "\x00\u2028")
	f.Fuzz(func(t *testing.T, know, how, may, stop, ev string) {
		out, err := FromAnswers("f", Answers{know, how, may, stop, ev})
		if err != nil {
			if len(know)+len(how)+2*len(may)+2*len(stop)+len(ev) > loops.MaxFileSize/4 {
				return // too large for a loop file: a fair rejection
			}
			t.Fatalf("FromAnswers failed: %v", err)
		}
		l, err := loops.Parse("f.loop.md", out)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Warrant.Send) != 0 || len(l.Warrant.Change) != 0 {
			t.Fatal("interview granted change or send")
		}
	})
}
