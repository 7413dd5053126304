package ci

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Two files of head that overlap (a delta next to another that repeats
// some of its entries) must hold the same lines where they overlap; the
// new entries are verified once, in order, and their amends returned.
func TestCompareChainOverlappingFiles(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	repo, err := gitx.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	prev := chain.Genesis
	for seq := int64(1); seq <= 10; seq++ {
		e := chain.Entry{Seq: seq, Prev: prev, TS: "2026-01-02T03:04:05.000Z", Loop: "deploy", Kind: chain.KindNote, Note: fmt.Sprintf("note %d", seq)}
		line, sealed, err := chain.Seal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines, prev = append(lines, string(line)), sealed.Hash
	}
	blob := func(ls []string) string {
		cmd := exec.Command("git", "hash-object", "-w", "--stdin")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(strings.Join(ls, "\n") + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	seg := func(from, to int64, ls []string) piece {
		return piece{from: from, to: to, id: blob(ls), path: fmt.Sprintf("w/%09d-%09d.jsonl", from, to)}
	}
	base := []piece{seg(1, 4, lines[:4])}
	head := []piece{base[0], seg(5, 8, lines[4:8]), seg(7, 10, lines[6:10])}
	res, f, _, err := compareChain(repo, "w", clonePieces(base), clonePieces(head))
	if err != nil || f != nil || !res.OK || res.New != 6 || res.HeadLast != 10 {
		t.Fatalf("honest overlap: %+v, finding %+v, %v", res, f, err)
	}
	// the second copy of entry 7 differs from the first: a rewrite (the
	// second copy is compared, never verified on its own)
	other := append([]string(nil), lines[6:10]...)
	other[0] = strings.Replace(other[0], "note 7", "note X", 1)
	head[2] = seg(7, 10, other)
	_, f, _, err = compareChain(repo, "w", clonePieces(base), clonePieces(head))
	if err != nil || f == nil || f.Seq != 7 || f.Reason != ReasonRewritten {
		t.Fatalf("a differing second copy: finding %+v, %v", f, err)
	}
	// a new entry that does not verify before that: it is the first break
	bad := append([]string(nil), lines[4:8]...)
	bad[1] = strings.Replace(bad[1], "note 6", "note Y", 1)
	head[1] = seg(5, 8, bad)
	_, f, _, err = compareChain(repo, "w", clonePieces(base), clonePieces(head))
	if err != nil || f == nil || f.Seq != 6 || f.Reason != ReasonBadEntry {
		t.Fatalf("a bad new entry before a bad copy: finding %+v, %v", f, err)
	}
}
