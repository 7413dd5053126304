package shell

import (
	"strings"
	"testing"
)

// TestCodeWhateverFollows: a prefix it names stays opaque under every
// suffix tried — as the words of the command, and as the clause Parse
// reads from the joined command line — so lint's never-allows warning
// cannot fire for an entry that could allow some call; and the prefixes it
// does not name include ones that are only opaque with some arguments.
func TestCodeWhateverFollows(t *testing.T) {
	opaque := [][]string{
		{"go", "generate"}, {"go", "generate", "./..."}, {"go", "env", "-w"}, {"go", "test", "-vettool=/x"},
		{"go", "build", "-toolexec", "x"}, {"go", "run", "/tmp/x.go"}, {"/usr/local/go/bin/go", "generate"},
		{"vim", "-c"}, {"emacs", "--eval"}, {"python3", "-c"}, {"node", "-e"}, {"perl", "-e"},
		{"pwsh", "-Command"}, {"deno", "eval"}, {"php", "-r"},
	}
	suffixes := [][]string{nil, {"./..."}, {"-x"}, {"--", "x"}, {"a", "b"}, {"-C", "dir"}, {"main.go"}, {"'x'"}}
	for _, p := range opaque {
		if CodeWhateverFollows(p) == "" {
			t.Errorf("%q: not named", p)
			continue
		}
		for _, s := range suffixes {
			words := append(append([]string(nil), p...), s...)
			if CodeWhateverFollows(words) == "" {
				t.Errorf("%q names every command opening with %q, but not %q", p, p, words)
			}
			sc := Parse(strings.Join(words, " "))
			if len(sc.Clauses) == 0 || !sc.Clauses[0].Opaque {
				t.Errorf("Parse(%q) is not opaque", strings.Join(words, " "))
			}
		}
	}
	for _, p := range [][]string{
		nil, {"go"}, {"go", "test"}, {"go", "run"}, {"go", "env"}, {"go", "-C"}, {"awk"}, {"sed", "-n"},
		{"vim"}, {"node"}, {"python3"}, {"jq"}, {"git", "push"},
	} {
		if why := CodeWhateverFollows(p); why != "" {
			t.Errorf("%q: named (%s), though some commands opening with it run no hidden code", p, why)
		}
	}
}
