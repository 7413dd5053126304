package gitx

import (
	"slices"
	"strings"
	"testing"
)

// MergeBaseRange agrees with `git merge-base` and `git log <mb>..head`
// whatever the shape of the history: a linear change, head behind base,
// head equal to base, a change that merged its base branch in, and a
// criss-cross with two merge bases.
func TestMergeBaseRangeMatchesGit(t *testing.T) {
	r := newRepo(t)
	g := func(args ...string) string {
		return run(t, r.WorkTree, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	}
	commit := func(msg string) { g("commit", "-q", "--allow-empty", "-m", msg) }
	commit("m1")
	g("branch", "feature")
	commit("m2")
	commit("m3")
	g("checkout", "-q", "feature")
	commit("f1\n\nWarrant-Head: .gitwarrant/record/w.jsonl sha256:aa")
	commit("f2")
	g("merge", "-q", "--no-edit", "main") // the change merges its base branch in
	commit("f3\n\nWarrant-Head: .gitwarrant/record/w.jsonl sha256:bb\nWarrant-Head: .gitwarrant/record/v sha256:cc")
	g("checkout", "-q", "main")
	commit("m4")
	// criss-cross: x and y each merge the other's parent
	g("checkout", "-q", "-b", "x", "main~1")
	commit("x1")
	g("checkout", "-q", "-b", "y", "main~1")
	commit("y1")
	g("merge", "-q", "--no-edit", "x~0")
	g("checkout", "-q", "x")
	g("merge", "-q", "--no-edit", "y~1")
	commit("x2")
	g("checkout", "-q", "y")
	commit("y2")
	g("checkout", "-q", "main")

	for _, c := range [][2]string{{"main", "feature"}, {"feature", "main"}, {"main", "main"}, {"main~2", "main"}, {"main", "main~2"}, {"x", "y"}, {"y", "x"}} {
		base, head := g("rev-parse", c[0]), g("rev-parse", c[1])
		mb, commits, err := r.MergeBaseRange(base, head)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		all := strings.Fields(g("merge-base", "--all", base, head))
		if !slices.Contains(all, mb) {
			t.Fatalf("%v: merge base %s, git says %v", c, mb, all)
		}
		if len(all) == 1 && mb != all[0] {
			t.Fatalf("%v: merge base %s, git says %s", c, mb, all[0])
		}
		var got []string
		pins := 0
		for _, rc := range commits {
			got = append(got, rc.ID)
			pins += len(rc.Pins)
		}
		want := strings.Fields(g("log", "--format=%H", mb+".."+head))
		if !slices.Equal(got, want) {
			t.Fatalf("%v: commits %v, git log %s..%s gives %v", c, got, mb, head, want)
		}
		wantPins := strings.Count(g("log", "--format=%B", mb+".."+head), "Warrant-Head:")
		if pins != wantPins {
			t.Fatalf("%v: %d pins, the messages hold %d", c, pins, wantPins)
		}
	}
}
