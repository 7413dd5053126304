package loops

import (
	"strings"
	"testing"
)

const editBase = `---
name: deploy
description: ship releases # who ships
warrant:
  read: [the repository, "CI logs"]   # flow
  change:
    - the changelog
    # keep this comment
    - 'release notes'
  ask: ~
  never:
    - force-push to main
reserved: [signing releases]
---
# Brief
Ship it.
`

// lineDiff returns the lines removed from a and added in b, in order,
// assuming the edit touched one place.
func lineDiff(a, b string) (removed, added []string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	i := 0
	for i < len(al) && i < len(bl) && al[i] == bl[i] {
		i++
	}
	j, k := len(al)-1, len(bl)-1
	for j >= i && k >= i && al[j] == bl[k] {
		j, k = j-1, k-1
	}
	return al[i : j+1], bl[i : k+1]
}

func TestEditList(t *testing.T) {
	for _, c := range []struct {
		name, list, entry string
		remove            bool
		removed, added    []string
	}{
		{"flow add", "read", "deploy logs", false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", deploy logs]   # flow`}},
		{"flow add needing quotes", "read", "a, b: c", false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", "a, b: c"]   # flow`}},
		{"flow remove first", "read", "the repository", true,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: ["CI logs"]   # flow`}},
		{"flow remove last", "read", "CI logs", true,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository]   # flow`}},
		{"block add", "change", "the version file", false,
			nil, []string{`    - the version file`}},
		{"block remove quoted", "change", "release notes", true,
			[]string{`    - 'release notes'`}, nil},
		{"block remove keeps comment", "change", "the changelog", true,
			[]string{`    - the changelog`}, nil},
		{"null list", "ask", "publishing", false,
			[]string{`  ask: ~`}, []string{`  ask: [publishing]`}},
		{"absent warrant list", "send", "push to release/*", false,
			nil, []string{`  send: [push to release/*]`}},
		{"reserved", "reserved", "yanking a release", false,
			[]string{`reserved: [signing releases]`}, []string{`reserved: [signing releases, yanking a release]`}},
		{"remove only flow item", "reserved", "signing releases", true,
			[]string{`reserved: [signing releases]`}, []string{`reserved: []`}},
		{"never remove", "never", "force-push to main", true,
			[]string{`    - force-push to main`}, nil},
		{"typed entry", "read", "Bash(git log *)", false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", Bash(git log *)]   # flow`}},
		{"typed entry with a comma", "change", "Edit(src/**, docs/**)", false,
			nil, []string{`    - Edit(src/**, docs/**)`}},
		{"entry with a hash", "read", "issue #12", false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", "issue #12"]   # flow`}},
		{"entry starting with a star", "change", "*.md files", false,
			nil, []string{`    - "*.md files"`}},
		{"entry with a quote", "read", `the "main" branch`, false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", the "main" branch]   # flow`}},
		{"entry looking like a number", "read", "1.5", false,
			[]string{`  read: [the repository, "CI logs"]   # flow`}, []string{`  read: [the repository, "CI logs", "1.5"]   # flow`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := EditList("deploy.loop.md", []byte(editBase), c.list, c.entry, c.remove)
			if err != nil {
				t.Fatal(err)
			}
			rm, add := lineDiff(editBase, string(out))
			if strings.Join(rm, "\n") != strings.Join(c.removed, "\n") || strings.Join(add, "\n") != strings.Join(c.added, "\n") {
				t.Fatalf("diff:\n-%q\n+%q\nwant\n-%q\n+%q\n%s", rm, add, c.removed, c.added, out)
			}
		})
	}
}

func TestEditListEmptyWarrant(t *testing.T) {
	for _, w := range []string{"warrant:", "warrant: ~ # none yet", "warrant: null"} {
		src := "---\nname: t\n" + w + "\nreserved: [x]\n---\n"
		out, err := EditList("t.loop.md", []byte(src), "send", "status mail", false)
		if err != nil {
			t.Fatalf("%q: %v", w, err)
		}
		l, err := Parse("t.loop.md", out)
		if err != nil || len(l.Warrant.Send) != 1 || l.Warrant.Send[0].Text != "status mail" || len(l.Reserved) != 1 {
			t.Fatalf("%q: %v\n%s", w, err, out)
		}
	}
	out, _ := EditList("t.loop.md", []byte("---\nname: t\n---\n"), "send", "status mail", false)
	if string(out) != "---\nname: t\nwarrant:\n  send: [status mail]\n---\n" {
		t.Fatalf("no warrant key: %q", out)
	}
}

func TestEditListCRLFAndErrors(t *testing.T) {
	crlf := strings.ReplaceAll(editBase, "\n", "\r\n")
	out, err := EditList("deploy.loop.md", []byte(crlf), "change", "x", false)
	if err != nil || !strings.Contains(string(out), "    - x\r\n") || strings.Count(string(out), "\n") != strings.Count(crlf, "\n")+1 {
		t.Fatalf("crlf: %v\n%q", err, out)
	}
	for _, c := range []struct {
		list, entry string
		remove      bool
		want        string
	}{
		{"read", "nope", true, `read has no entry "nope"`},
		{"read", "CI logs", false, `already holds "CI logs"`},
		{"brief", "x", false, "not a list an amend can change"},
		{"read", "  ", false, "the entry is empty"},
	} {
		_, err := EditList("deploy.loop.md", []byte(editBase), c.list, c.entry, c.remove)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c, err, c.want)
		}
	}
}

// FuzzEditListRoundTrip: whatever the entry, adding it and removing it
// again gives back the file byte for byte, and the added file holds it.
func FuzzEditListRoundTrip(f *testing.F) {
	for _, s := range []string{"x", "a, b", "#c", "'q'", `"d"`, "- e", "1", "yes", "~", "Bash(git push *)", "x: y", "[z]", "a #b", "é"} {
		f.Add(s, "read")
		f.Add(s, "change")
	}
	f.Fuzz(func(t *testing.T, entry, list string) {
		if list != "read" && list != "change" && list != "never" {
			return
		}
		added, err := EditList("deploy.loop.md", []byte(editBase), list, entry, false)
		if err != nil {
			return // refused (empty, present already, or unrepresentable): nothing to check
		}
		back, err := EditList("deploy.loop.md", added, list, entry, true)
		if err != nil {
			t.Fatalf("added %q to %s but cannot remove it: %v\n%s", entry, list, err, added)
		}
		if string(back) != editBase {
			t.Fatalf("add+remove of %q changed the file:\n%s", entry, back)
		}
	})
}
