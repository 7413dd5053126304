// Command mkgate writes the repository bench/ci.sh measures, with one
// `git fast-import`: main with <commits> commits, <loops> loops and a
// record of <entries> entries kept as a writer's folder of sealed
// 2048-entry segments (one segment added per commit until the record is
// whole), and a branch pr forked 10 commits before main's tip with
// <pr-commits> commits adding <pr-entries> entries as delta files.
//
//	mkgate <repo dir> <commits> <loops> <entries> <pr-commits> <pr-entries>
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

const seg = 2048

func main() {
	if len(os.Args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: mkgate <repo dir> <commits> <loops> <entries> <pr-commits> <pr-entries>")
		os.Exit(2)
	}
	n := func(i int) int {
		v, err := strconv.Atoi(os.Args[i])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		return v
	}
	dir, commits, nloops, entries, prCommits, prEntries := os.Args[1], n(2), n(3), n(4), n(5), n(6)
	if err := run(dir, commits, nloops, entries, prCommits, prEntries); err != nil {
		fmt.Fprintln(os.Stderr, "mkgate:", err)
		os.Exit(1)
	}
}

type gen struct {
	seq  int64
	prev string
}

func (g *gen) lines(k int) string {
	var b strings.Builder
	for i := 0; i < k; i++ {
		g.seq++
		e := chain.Entry{Seq: g.seq, Prev: g.prev, TS: "2026-01-02T03:04:05.000Z", Loop: "task-001", Kind: chain.KindCheck,
			Action: "change", Target: fmt.Sprintf("widget%d source files", g.seq%100), Verdict: "allow", Rule: "change: widget source files"}
		line, e, err := chain.Seal(e)
		if err != nil {
			panic(err)
		}
		g.prev = e.Hash
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

func run(dir string, commits, nloops, entries, prCommits, prEntries int) error {
	if out, err := exec.Command("git", "init", "-q", "-b", "main", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdin, 1<<20)
	mark := 0
	file := func(path, data string) {
		fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", path, len(data), data)
	}
	begin := func(ref string, from int, msg string) int {
		mark++
		fmt.Fprintf(w, "commit %s\nmark :%d\ncommitter Bench <bench@example.com> %d +0000\ndata %d\n%s\n", ref, mark, 1767000000+mark, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(w, "from :%d\n", from)
		}
		return mark
	}
	g := &gen{prev: chain.Genesis}
	rec := ".gitwarrant/record/bench-000000000001/"
	fork, tip := 0, 0
	for c := 1; c <= commits; c++ {
		tip = begin("refs/heads/main", tip, fmt.Sprintf("main %d", c))
		if c == 1 {
			file(".gitwarrant/allowed_signers", "")
			for l := 1; l <= nloops; l++ {
				file(fmt.Sprintf(".gitwarrant/loops/task-%03d.loop.md", l), fmt.Sprintf(
					"---\nname: task-%03d\ndescription: chore %d\nwarrant:\n  read: [source code, logs of widget%d]\n  change:\n    - widget%d source files\n  ask: [deploying widget%d]\n  never: [deleting widget%d data]\n---\n# Brief\nKeep widget%d healthy.\n",
					l, l, l, l, l, l, l))
			}
		}
		if left := entries - int(g.seq); left > 0 {
			k := min(seg, left)
			from := g.seq + 1
			data := g.lines(k)
			file(fmt.Sprintf("%s%09d-%09d.jsonl", rec, from, g.seq), data)
		}
		file(fmt.Sprintf("src/file%02d.txt", c%50), fmt.Sprintf("change %d\n", c))
		if c == commits-10 {
			fork = tip
		}
	}
	if fork == 0 {
		fork = tip
	}
	// The pull request continues the record from where main stood at the
	// fork (main's later commits touch only src/ when the record was whole
	// by then).
	per := prEntries / max(prCommits, 1)
	from := fork
	for c := 1; c <= prCommits; c++ {
		from = begin("refs/heads/pr", from, fmt.Sprintf("pr %d", c))
		k := per
		if c == prCommits {
			k = prEntries - per*(prCommits-1)
		}
		if k > 0 {
			s := g.seq + 1
			data := g.lines(k)
			file(fmt.Sprintf("%s%09d-%09d.jsonl", rec, s, g.seq), data)
		}
		file(fmt.Sprintf("src/pr%02d.txt", c), "pr\n")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	stdin.Close()
	return cmd.Wait()
}
