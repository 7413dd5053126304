// Command mkchain writes a valid record chain of N check entries in bulk,
// for benchmarks that need a large chain (bench/record_git.sh). Appending
// 100,000 entries one by one, each fsynced and committed, would take far
// longer than the measurement itself.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/chain"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: mkchain <path> <entries> <loop-blob-id>")
		os.Exit(1)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkchain: entries must be a number:", err)
		os.Exit(1)
	}
	if err := write(os.Args[1], n, os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "mkchain:", err)
		os.Exit(1)
	}
}

func write(path string, n int, blob string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	prev := chain.Genesis
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 1; i <= n; i++ {
		e := chain.Entry{Seq: int64(i), TS: t0.Add(time.Duration(i) * time.Second).Format(chain.TSLayout),
			Loop: "appeal", Kind: chain.KindCheck, Action: "draft", Target: fmt.Sprintf("appeal letter, revision %d", i),
			Verdict: "allow", Rule: "allow draft: appeal letter", Via: "cli", LoopBlob: blob, Engine: "bench", Prev: prev}
		line, sealed, err := chain.Seal(e)
		if err != nil {
			return err
		}
		w.Write(append(line, '\n'))
		prev = sealed.Hash
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
