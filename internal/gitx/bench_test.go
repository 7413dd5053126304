package gitx

import (
	"fmt"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkAppendChain is the per-event commit on refs/gitwarrant/<writer>
// (docs/design.md#the-record): read the last segment, write four loose objects, move the
// ref. Its cost must not grow with the chain (bench/record_git.sh measures
// it against `git commit` at 100,000 entries).
func BenchmarkAppendChain(b *testing.B) {
	r := newRepoB(b)
	c := &ChainRef{Name: RecordRef("main-bench")}
	i := 0
	for b.Loop() {
		seg, _, err := r.LastSegment(c)
		if err != nil {
			b.Fatal(err)
		}
		line := []byte(fmt.Sprintf("{\"seq\":%d,\"target\":\"appeal letter\"}\n", i))
		c, err = r.AppendChain(c, seg, ChainCommit{Chain: "rec.jsonl", Lines: [][]byte{line}, Head: "h", Subject: "s",
			Author: Identity{Name: "b", Email: "b@example.com"}, When: time.Unix(1700000000, 0)})
		if err != nil {
			b.Fatal(err)
		}
		c, err = r.ReadChainRef(c.Name) // as the next process would
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func newRepoB(b *testing.B) *Repo {
	dir := b.TempDir()
	cmd := exec.Command("git", "init", "-q", "-b", "main")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	r, err := Discover(dir)
	if err != nil {
		b.Fatal(err)
	}
	return r
}
