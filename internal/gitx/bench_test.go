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

// BenchmarkDiscover is what every check and hook call pays to find the
// repository: Locate (stat and read .git) and Discover (Locate plus the
// format check that refuses SHA-256 and reftable repositories,
// docs/design.md#repositories-gitwarrant-refuses). The difference is the
// check's cost; `git rev-parse --git-dir` in the same run is the yardstick.
func BenchmarkDiscover(b *testing.B) {
	r := newRepoB(b)
	git := func(dir string) (*Repo, error) {
		cmd := exec.Command("git", "rev-parse", "--git-dir")
		cmd.Dir = dir
		return nil, cmd.Run()
	}
	for _, c := range []struct {
		name string
		find func(string) (*Repo, error)
	}{{"Locate", Locate}, {"Discover", Discover}, {"git-rev-parse", git}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.find(r.WorkTree); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
