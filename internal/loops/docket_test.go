package loops

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// docketDir holds docket's nine shipped loops, byte for byte (see its
// README for the commit they were read at).
const docketDir = "../../testdata/docket"

var docketLoops = []string{"client-follow-up", "cross-tool-memory", "insurance-appeal", "marketing-brain",
	"org-baseline", "prod-hotfix", "ticket-handoff", "travel-morning", "weekly-planning"}

// TestDocketLoopsLoad: every loop docket ships loads, its leniencies
// included (ticket-handoff's unquoted `: `, org-baseline's `abstract`).
func TestDocketLoopsLoad(t *testing.T) {
	ls, errs := LoadDir(docketDir)
	for _, err := range errs {
		t.Error(err)
	}
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	if !slices.Equal(names, docketLoops) {
		t.Fatalf("loaded %v, want %v", names, docketLoops)
	}
	for _, l := range ls {
		switch l.Name {
		case "ticket-handoff":
			want := "Turn messy work into tickets another human — or another agent — can pick up cold: source, owner, status, blocker, warrant, record."
			if l.Description != want {
				t.Errorf("ticket-handoff description = %q, want %q", l.Description, want)
			}
			if len(l.Warnings) != 1 || l.Warnings[0].Line != 3 {
				t.Errorf("ticket-handoff warnings = %+v, want one on line 3", l.Warnings)
			}
		case "org-baseline":
			if !l.Abstract || len(l.Warrant.Never) != 6 || len(l.Warrant.Ask) != 4 {
				t.Errorf("org-baseline: abstract %v, %d never, %d ask", l.Abstract, len(l.Warrant.Never), len(l.Warrant.Ask))
			}
		default:
			if l.Abstract || len(l.Warnings) != 0 {
				t.Errorf("%s: abstract %v, warnings %+v", l.Name, l.Abstract, l.Warnings)
			}
		}
	}
}

// TestDocketExtends: each shipped loop, made to extend org-baseline the way
// org-baseline's brief says every loop does, gets the baseline's lists
// first and keeps its own; the baseline's hard stops then decide.
func TestDocketExtends(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join(docketDir, "org-baseline.loop.md"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "org-baseline.loop.md"), base)
	parent, err := LoadFile(filepath.Join(dir, "org-baseline.loop.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range docketLoops {
		if name == "org-baseline" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(docketDir, name+FileSuffix))
		if err != nil {
			t.Fatal(err)
		}
		own, err := Parse(name+FileSuffix, src)
		if err != nil {
			t.Fatal(err)
		}
		child := strings.Replace(string(src), "\nversion: 1\n", "\nversion: 1\nextends: org-baseline\n", 1)
		writeFile(t, filepath.Join(dir, name+FileSuffix), []byte(child))
		l, err := LoadFile(filepath.Join(dir, name+FileSuffix))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, list := range Lists {
			got, p, c := l.Warrant.List(list), parent.Warrant.List(list), own.Warrant.List(list)
			if len(got) < len(p) || len(got) > len(p)+len(c) {
				t.Errorf("%s %s: %d items from %d parent + %d own", name, list, len(got), len(p), len(c))
				continue
			}
			for i, it := range p {
				if got[i].Text != it.Text || got[i].From != "org-baseline" || got[i].Line != it.Line {
					t.Errorf("%s %s[%d] = %+v, want the baseline's %q first", name, list, i, got[i], it.Text)
				}
			}
			for _, it := range c {
				if !slices.ContainsFunc(got, func(g Item) bool { return Fold(g.Text) == Fold(it.Text) }) {
					t.Errorf("%s %s lost its own entry %q", name, list, it.Text)
				}
			}
		}
		if l.Abstract || !slices.Equal(l.Inherits, []string{"org-baseline"}) || l.Brief != own.Brief {
			t.Errorf("%s: abstract %v, inherits %v, brief changed %v", name, l.Abstract, l.Inherits, l.Brief != own.Brief)
		}
		if r := l.Check(Change, "truncate the production data"); r.Verdict != Deny || r.Pattern != "drop, delete, truncate, or wipe production data" {
			t.Errorf("%s: change truncate production data = %s by %q, want the baseline's never", name, r.Verdict, r.Pattern)
		}
		// No child lifts a baseline rule: each never entry still denies and
		// each ask entry still asks (or denies), under every verb.
		for _, v := range Verbs {
			for _, it := range parent.Warrant.Never {
				if r := l.Check(v, it.Text); r.Verdict != Deny {
					t.Errorf("%s: %s %q = %s, want deny (the baseline's never)", name, v, it.Text, r.Verdict)
				}
			}
			for _, it := range parent.Warrant.Ask {
				if r := l.Check(v, it.Text); r.Verdict == Allow {
					t.Errorf("%s: %s %q = allow, want the baseline's ask", name, v, it.Text)
				}
			}
		}
	}
}
