// Command mkchain writes a valid record chain of N check entries in bulk,
// for benchmarks that need a large record (bench/record_git.sh,
// bench/record_1m.sh, bench/longrun.sh). Appending a million entries one by
// one, each a commit, would take far longer than the measurement itself.
//
//	mkchain <path> <entries> <loop-blob-id>          a chain file
//	mkchain -ref <repo> <writer> <entries> <blob-id> refs/gitwarrant/<writer>,
//	        replaced by a chain of <entries> entries (one commit per 32,768)
package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

func main() {
	var err error
	switch {
	case len(os.Args) == 6 && os.Args[1] == "-ref":
		err = writeRef(os.Args[2], os.Args[3], atoi(os.Args[4]), os.Args[5])
	case len(os.Args) == 4:
		err = writeFile(os.Args[1], atoi(os.Args[2]), os.Args[3])
	default:
		err = fmt.Errorf("usage: mkchain <path> <entries> <loop-blob-id> | mkchain -ref <repo> <writer> <entries> <loop-blob-id>")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkchain:", err)
		os.Exit(1)
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkchain: entries must be a number:", err)
		os.Exit(1)
	}
	return n
}

// gen calls emit with each of n entries' lines (newline included).
func gen(n int, blob string, emit func(line []byte, hash string) error) error {
	prev := chain.Genesis
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	verdicts := []string{"allow", "ask", "deny"}
	for i := 1; i <= n; i++ {
		e := chain.Entry{Seq: int64(i), TS: t0.Add(time.Duration(i) * time.Second).Format(chain.TSLayout),
			Loop: "appeal", Kind: chain.KindCheck, Action: "draft", Target: fmt.Sprintf("appeal letter, revision %d", i),
			Verdict: verdicts[i%3], Rule: "allow draft: appeal letter", Via: "cli", LoopBlob: blob, Engine: "bench", Prev: prev}
		line, sealed, err := chain.Seal(e)
		if err != nil {
			return err
		}
		if err := emit(append(line, '\n'), sealed.Hash); err != nil {
			return err
		}
		prev = sealed.Hash
	}
	return nil
}

func writeFile(path string, n int, blob string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := gen(n, blob, func(line []byte, _ string) error { _, err := w.Write(line); return err }); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// writeRef replaces refs/gitwarrant/<writer> with a fresh chain, committed
// in batches of one ref directory (SegmentLines × SegmentsPerDir lines).
func writeRef(repoDir, writer string, n int, blob string) error {
	repo, err := gitx.Discover(repoDir)
	if err != nil {
		return err
	}
	name := gitx.RecordRef(writer)
	if old, err := repo.ReadRef(name); err == nil && !old.IsZero() {
		if _, err := repo.Git("update-ref", "-d", name); err != nil {
			return err
		}
	}
	cr := &gitx.ChainRef{Name: name}
	batch := gitx.SegmentLines * gitx.SegmentsPerDir
	var lines [][]byte
	head := ""
	flush := func() error {
		if len(lines) == 0 {
			return nil
		}
		seg, _, err := repo.LastSegment(cr)
		if err != nil {
			return err
		}
		cr, err = repo.AppendChain(cr, seg, gitx.ChainCommit{
			Chain: filepath.ToSlash(filepath.Join(".gitwarrant", "record", writer)) + "/", Lines: lines, Head: head,
			Subject: fmt.Sprintf("warrant: bulk %d entries", len(lines)), Author: gitx.Identity{Name: "bench", Email: "bench@example.com"}, When: time.Now(),
		})
		lines = lines[:0]
		return err
	}
	err = gen(n, blob, func(line []byte, hash string) error {
		lines = append(lines, line)
		head = hash
		if len(lines) == batch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err == nil { // as gitwarrant's appends do (docs/record.md#packing)
		_, err = repo.PackRange(cr.Commit.String(), "")
	}
	return err
}
