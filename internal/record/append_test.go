package record

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

// refContent rebuilds a record ref's chain file with git itself, so the
// segment layout is checked by an independent reader.
func refContent(t testing.TB, dir, ref string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range strings.Fields(git(t, dir, "ls-tree", "-r", "--name-only", ref)) {
		b.WriteString(git(t, dir, "cat-file", "blob", ref+":"+p))
	}
	return b.String()
}

func TestAppendCommitsEachEntryToWriterRef(t *testing.T) {
	dir, p := newRepo(t)
	headBefore := git(t, dir, "rev-parse", "HEAD")
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	const n = 300 // crosses two segment boundaries
	for i := 0; i < n; i++ {
		if _, err := r.Append(note(fmt.Sprintf("step %d", i))); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	w, _ := r.Writer()
	if !strings.HasPrefix(w, "main-") {
		t.Fatalf("writer = %q, want main-<clone id>", w)
	}
	ref := "refs/gitwarrant/" + w
	if got := strings.TrimSpace(git(t, dir, "rev-list", "--count", ref)); got != fmt.Sprint(n) {
		t.Fatalf("%s has %s commits, want %d", ref, got, n)
	}
	if _, err := os.Stat(p.RecordDir()); err == nil {
		t.Fatal("an append wrote the work tree")
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != headBefore {
		t.Fatalf("HEAD moved: %s -> %s", headBefore, got)
	}
	if got := git(t, dir, "diff", "--cached"); got != "" {
		t.Fatalf("index changed: %s", got)
	}
	if got := git(t, dir, "fsck", "--strict"); strings.Contains(got, "error") {
		t.Fatalf("fsck: %s", got)
	}
	subj := git(t, dir, "log", "-1", "--format=%s", ref)
	if want := fmt.Sprintf("warrant: note did \"step %d\" [appeal] #%d\n", n-1, n); subj != want {
		t.Fatalf("subject %q, want %q", subj, want)
	}
	rep := chain.Verify(strings.NewReader(refContent(t, dir, ref)), ref)
	if !rep.OK() || rep.Entries != n {
		t.Fatalf("verify: %+v", rep)
	}
}

// TestQuoteSameAsGeneral: quote's short path gives what the general one
// does.
func TestQuoteSameAsGeneral(t *testing.T) {
	general := func(s string) string {
		s = strings.Join(strings.Fields(s), " ")
		if r := []rune(s); len(r) > 60 {
			s = string(r[:59]) + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	for _, s := range []string{"", "appeal letter", " lead", "trail ", "two  spaces", "tab\there", `say "hi"`, `back\\slash`,
		"é accent", strings.Repeat("x", 60), strings.Repeat("x", 61), strings.Repeat("é", 40), "\x7f", "a\nb"} {
		if got, want := quote(s), general(s); got != want {
			t.Errorf("quote(%q) = %s, want %s", s, got, want)
		}
	}
}
