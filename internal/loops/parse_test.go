package loops

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// fm builds a loop file from frontmatter lines and a body.
func fm(body string, lines ...string) []byte {
	return []byte("---\n" + strings.Join(lines, "\n") + "\n---\n" + body)
}

// wantError asserts err is an *Error at line with msg in its text and a hint.
func wantError(t *testing.T, err error, line int, msg string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("Parse succeeded; want error containing %q at line %d", msg, line)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, want *Error", err, err)
	}
	if e.Line != line {
		t.Errorf("error %q at line %d, want line %d", err, e.Line, line)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q does not contain %q", err, msg)
	}
	if e.Hint == "" {
		t.Errorf("error %q has no hint", err)
	}
	return e
}

func TestParseRejects(t *testing.T) {
	cases := []struct {
		name string
		path string // default t.loop.md
		data []byte
		line int
		msg  string
	}{
		{"misspelt warrant key", "", fm("", "name: t", "warrant:", "  read: [a]", "  nevr: [x]"), 5, `did you mean "never"`},
		{"unknown top-level key", "", fm("", "name: t", "owner: me"), 3, `unknown field "owner"`},
		{"misspelt top-level key", "", fm("", "name: t", "reserverd: [x]"), 3, `did you mean "reserved"`},
		{"name/file mismatch", "other.loop.md", fm("", "description: d", "name: t"), 3, `does not match the file name "other.loop.md"`},
		{"bad name chars", "Bad_Name.loop.md", fm("", "name: Bad_Name"), 2, "not a valid loop name"},
		{"name starts with dash", "-x.loop.md", fm("", "name: -x"), 2, "not a valid loop name"},
		{"name missing", "", fm("", "description: d"), 1, "`name` is missing"},
		{"empty frontmatter", "", []byte("---\n---\nbody\n"), 1, "frontmatter is empty"},
		{"not a loop file name", "t.md", fm("", "name: t"), 0, `does not end in .loop.md`},
		{"version 2", "", fm("", "name: t", "version: 2"), 3, "version 2 is not understood"},
		{"version 1.5", "", fm("", "name: t", "version: 1.5"), 3, "version 1.5 is not understood"},
		{"version one", "", fm("", "name: t", "version: one"), 3, "version one is not understood"},
		{"version quoted", "", fm("", "name: t", `version: "1"`), 3, "version 1 is not understood"},
		{"list of maps", "", fm("", "name: t", "warrant:", "  ask:", "    - who: insurer"), 5, "lists of maps are not allowed"},
		{"nested list", "", fm("", "name: t", "record:", "  - [a, b]"), 4, "nested list"},
		{"anchor", "", fm("", "name: t", "reserved: &r [a]"), 3, "anchor &r"},
		{"alias", "", fm("", "name: t", "reserved: [a]", "warrant:", "  ask:", "    - *r"), 6, "alias *r"},
		{"anchor then alias", "", fm("", "name: t", "reserved: [a]", "record:", "  - &r x", "triggers: [*r]"), 5, "anchor &r"},
		{"tag", "", fm("", "name: t", "description: !!str hello"), 3, "explicit tag !!str"},
		{"tag on item", "", fm("", "name: t", "record:", "  - !custom x"), 4, "explicit tag !custom"},
		{"literal block scalar", "", fm("", "name: t", "description: |", "  line one", "  line two"), 3, "block scalar"},
		{"folded block scalar", "", fm("", "name: t", "goal: >", "  fold me"), 3, "block scalar"},
		{"multi-line double quoted", "", fm("", "name: t", `description: "first`, `  second"`), 3, "quoted value continues"},
		{"multi-line single quoted", "", fm("", "name: t", "record:", "  - 'a", "    # b'"), 4, "quoted value continues"},
		{"multi-line plain scalar", "", fm("", "name: t", "description: first", "  second"), 4, "continues a value"},
		{"multi-line flow list", "", fm("", "name: t", "warrant:", "  read: [a,", "    b]"), 5, "spans more than one line"},
		{"flow list closed on own line", "", fm("", "name: t", "warrant:", "  read: [a, b", "  ]"), 5, "continues a value"},
		{"flow map", "", fm("", "name: t", "warrant: {read: [a]}"), 3, "flow maps"},
		{"duplicate top-level key", "", fm("", "name: t", "record: [a]", "record: [b]"), 4, `"record" appears twice (first on line 3)`},
		{"duplicate warrant key", "", fm("", "name: t", "warrant:", "  never: [a]", "  ask: [b]", "  never: [c]"), 6, `"never" appears twice`},
		{"null item", "", fm("", "name: t", "warrant:", "  never:", "    -", "    - x"), 5, "empty item"},
		{"blank quoted item", "", fm("", "name: t", "record: ['  ']"), 3, "empty item"},
		{"scalar where list expected", "", fm("", "name: t", "warrant:", "  never: accepting a settlement"), 4, "must be a list"},
		{"map where text expected", "", fm("", "name: t", "goal:", "  a: b"), 4, "must be one line of text"},
		{"warrant not a map", "", fm("", "name: t", "warrant: [read]"), 3, "warrant must be a map"},
		{"frontmatter not a map", "", fm("", "- name"), 2, "must be fields"},
		{"escaped newline in value", "", fm("", "name: t", `record: ["a\nb"]`), 3, "control or invisible character"},
		{"direction override", "", fm("", "name: t", "record: [a\u202eb]"), 3, "direction override"},
		{"lone carriage return", "", []byte("---\nname: t\nrecord: [a]\rnever: [b]\n---\n"), 3, "carriage return"},
		{"line separator", "", []byte("---\nname: t\ngoal: a\u2028b\n---\n"), 3, "line separator"},
		{"yaml syntax error", "", fm("", "name: t", "warrant:", "  read: [a", "goal: x"), 4, "not valid YAML"},
		{"second document", "", fm("", "name: t", "--- x"), 3, "second YAML document"},
		{"directive", "", fm("", "name: t", "%YAML 1.2"), 3, "not valid YAML"},
		{"missing frontmatter", "", []byte("# Brief\nno frontmatter\n"), 1, "no frontmatter"},
		{"unterminated frontmatter", "", []byte("---\nname: t\n\n# Brief\n"), 1, "never closed"},
		{"non-UTF-8", "", []byte("---\nname: t\ngoal: caf\xe9\n---\n"), 3, "not valid UTF-8"},
		{"non-UTF-8 in body", "", fm("ok\n\xff\n", "name: t"), 5, "not valid UTF-8"},
		{"oversize", "", append(fm("", "name: t"), make([]byte, MaxFileSize)...), 0, "over the 204800-byte limit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = "dir/t.loop.md"
			}
			l, err := Parse(path, tc.data)
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", l)
			}
			e := wantError(t, err, tc.line, tc.msg)
			if e.File != path {
				t.Errorf("error names file %q, want %q", e.File, path)
			}
		})
	}
}

func TestParseAcceptsSubset(t *testing.T) {
	data := fm("",
		"# a comment",
		"name: t       # trailing comment",
		`description: "quoted: with colon"`,
		"version: 1",
		"warrant:",
		"  read: [a, 'b c', \"d\"]",
		"  draft: []",
		"  change:",
		"  send: ~",
		"  ask:",
		"    - 42",
		"    - true",
		"  never:",
		"    - 'it''s'",
		"    - storing secrets, tokens, or passwords",
		"budget: 30",
		"goal:",
		"  reach the end",
	)
	l, err := Parse("t.loop.md", data)
	if err != nil {
		t.Fatal(err)
	}
	if l.Description != "quoted: with colon" || l.Budget != "30" || l.Goal != "reach the end" || l.Version != 1 {
		t.Errorf("scalars = %q %q %q %d", l.Description, l.Budget, l.Goal, l.Version)
	}
	if got := Texts(l.Warrant.Read); !reflect.DeepEqual(got, []string{"a", "b c", "d"}) {
		t.Errorf("read = %q", got)
	}
	if l.Warrant.Draft == nil || len(l.Warrant.Draft) != 0 || l.Warrant.Change != nil || l.Warrant.Send != nil {
		t.Errorf("draft/change/send = %#v %#v %#v", l.Warrant.Draft, l.Warrant.Change, l.Warrant.Send)
	}
	if got := Texts(l.Warrant.Ask); !reflect.DeepEqual(got, []string{"42", "true"}) {
		t.Errorf("ask = %q", got)
	}
	want := []Item{{Text: "it's", Line: 15}, {Text: "storing secrets, tokens, or passwords", Line: 16}}
	if !reflect.DeepEqual(l.Warrant.Never, want) {
		t.Errorf("never = %+v, want %+v", l.Warrant.Never, want)
	}
}

func TestParseDefaultsVersion(t *testing.T) {
	l, err := Parse("t.loop.md", fm("", "name: t"))
	if err != nil {
		t.Fatal(err)
	}
	if l.Version != SpecVersion {
		t.Errorf("Version = %d, want %d", l.Version, SpecVersion)
	}
}

func TestParseItemLines(t *testing.T) {
	data := []byte("\ufeff---\r\n" +
		"name: t\r\n" + // 2
		"triggers:\r\n" + // 3
		"  - one\r\n" + // 4
		"\r\n" + // 5
		"  # comment\r\n" + // 6
		"  - two\r\n" + // 7
		"warrant:\r\n" + // 8
		"  read: [r1, r2]\r\n" + // 9
		"  never:\r\n" + // 10
		"    - n1\r\n" + // 11
		"reserved: [s]\r\n" + // 12
		"record:\r\n" + // 13
		"  - \"q\"\r\n" + // 14
		"---\r\n# Brief\r\nbrief text\r\n")
	l, err := Parse("t.loop.md", data)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name  string
		items []Item
		want  []Item
	}{
		{"triggers", l.Triggers, []Item{{Text: "one", Line: 4}, {Text: "two", Line: 7}}},
		{"read", l.Warrant.Read, []Item{{Text: "r1", Line: 9}, {Text: "r2", Line: 9}}},
		{"never", l.Warrant.Never, []Item{{Text: "n1", Line: 11}}},
		{"reserved", l.Reserved, []Item{{Text: "s", Line: 12}}},
		{"record", l.Record, []Item{{Text: "q", Line: 14}}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.items, c.want) {
			t.Errorf("%s = %+v, want %+v", c.name, c.items, c.want)
		}
	}
	if l.Brief != "brief text" {
		t.Errorf("Brief = %q (CRLF must be stripped)", l.Brief)
	}
}

func TestParseSections(t *testing.T) {
	cases := []struct {
		name             string
		body             string
		pre, brief, proc string
	}{
		{"plain", "# Brief\nknow this\n\n# Procedure\ndo this\n", "", "know this", "do this"},
		{"levels and case", "## procedure\nsteps\n### BRIEF\nfacts\n", "", "facts", "steps"},
		{"spaces and closing hashes", "#   Brief   ##\nb\n##  Procedure \np\n", "", "b", "p"},
		{"level four is content", "# Brief\nb\n#### Procedure\np\n", "", "b\n#### Procedure\np", ""},
		{"no space is content", "# Brief\nb\n#Procedure\n", "", "b\n#Procedure", ""},
		{"subheadings stay", "# Brief\n## Background\nx\n# Other\ny\n", "", "## Background\nx\n# Other\ny", ""},
		{"backtick fence", "# Brief\n```md\n# Procedure\n```\nafter\n", "", "```md\n# Procedure\n```\nafter", ""},
		{"tilde fence", "# Brief\n~~~\n## Procedure\n~~~~\n# Procedure\np\n", "", "~~~\n## Procedure\n~~~~", "p"},
		{"longer fence needs longer close", "# Brief\n````\n```\n# Procedure\n````\n# Procedure\np\n", "", "````\n```\n# Procedure\n````", "p"},
		{"different fence char does not close", "# Brief\n```\n~~~\n# Procedure\n```\n", "", "```\n~~~\n# Procedure\n```", ""},
		{"indented fence in list", "# Brief\n1. step\n    ```\n    # Procedure\n    ```\n", "", "1. step\n    ```\n    # Procedure\n    ```", ""},
		{"unclosed fence keeps rest", "# Brief\n```\n# Procedure\np\n", "", "```\n# Procedure\np", ""},
		{"inline backticks are not a fence", "# Brief\n``` x ```\n# Procedure\np\n", "", "``` x ```", "p"},
		{"preamble kept", "intro\n\n# Brief\nb\n", "intro", "b", ""},
		{"repeated heading appends", "# Brief\none\n# Procedure\np\n# brief\ntwo\n", "", "one\n\ntwo", "p"},
		{"blank edges trimmed, inner kept", "# Brief\n\n\na\n\nb\n\n\n", "", "a\n\nb", ""},
		{"no body", "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse("t.loop.md", fm(tc.body, "name: t"))
			if err != nil {
				t.Fatal(err)
			}
			if l.Preamble != tc.pre || l.Brief != tc.brief || l.Procedure != tc.proc {
				t.Errorf("got preamble %q brief %q procedure %q\nwant preamble %q brief %q procedure %q",
					l.Preamble, l.Brief, l.Procedure, tc.pre, tc.brief, tc.proc)
			}
		})
	}
}

func TestParseIdentity(t *testing.T) {
	data := fm("# Brief\nx\n", "name: t")
	l, err := Parse("t.loop.md", data)
	if err != nil {
		t.Fatal(err)
	}
	h := sha1.Sum(append([]byte("blob "+strconv.Itoa(len(data))+"\x00"), data...))
	if want := "git:" + hex.EncodeToString(h[:]); l.BlobID != want {
		t.Errorf("BlobID = %s, want %s", l.BlobID, want)
	}
	if !strings.HasPrefix(l.Digest, "sha256:") || len(l.Digest) != 7+64 {
		t.Errorf("Digest = %q", l.Digest)
	}
	if string(l.Source) != string(data) || l.Path != "t.loop.md" {
		t.Errorf("Source/Path not kept")
	}
	// Cross-check against git itself when it is installed.
	if git, err := exec.LookPath("git"); err == nil {
		p := filepath.Join(t.TempDir(), "t.loop.md")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(git, "hash-object", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		if want := "git:" + strings.TrimSpace(string(out)); l.BlobID != want {
			t.Errorf("BlobID = %s, git hash-object says %s", l.BlobID, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	cases := map[string]string{"nevr": "never", "Never": "never", "reed": "read", "chnage": "change", "desc": "description", "zzz": ""}
	all := append(append([]string{}, topKeys...), Lists...)
	for in, want := range cases {
		if got := suggest(in, all); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}
