// Command peerguards extracts the test corpora of three other command
// guards into testdata/peerguards/ (run it from the module root; see
// testdata/peerguards/README.md for the sources and their licences):
//
//	go run ./eval/cmd/peerguards -dcg DIR -safetynet DIR -codex DIR [-codex-commit SHA]
//
// Each DIR is the peer's repository: a git directory (read at HEAD, or at
// -rev) or a folder with its files, such as a sparse checkout of
// codex-rs/execpolicy and codex-rs/execpolicy-legacy. It writes one JSON file
// per peer: every command the peer's tests give a verdict for, the verdict,
// the context the test set, and the file and line it was read from.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gitwarrant/gitwarrant/eval/peerguards"
)

func main() {
	dcg := flag.String("dcg", "", "Dicklesworthstone/destructive_command_guard: a git directory or a folder with its files")
	sn := flag.String("safetynet", "", "kenryu42/claude-code-safety-net: a git directory or a folder with its files")
	codex := flag.String("codex", "", "openai/codex: a git directory or a folder holding codex-rs/execpolicy and codex-rs/execpolicy-legacy")
	codexCommit := flag.String("codex-commit", "", "the openai/codex commit a -codex folder was taken from (recorded in the corpus; the revision to read for a git directory)")
	out := flag.String("o", "testdata/peerguards", "the folder to write the corpora into")
	flag.Parse()
	if *dcg == "" || *sn == "" || *codex == "" {
		fmt.Fprintln(os.Stderr, "peerguards: -dcg, -safetynet and -codex are all required; see `go doc ./eval/cmd/peerguards`")
		os.Exit(2)
	}
	if err := run(*out, *dcg, *sn, *codex, *codexCommit); err != nil {
		fmt.Fprintf(os.Stderr, "peerguards: %v\n", err)
		os.Exit(1)
	}
}

func run(out, dcg, sn, codex, codexCommit string) error {
	type job struct {
		dir, commit string
		read        func(*peerguards.Source) (*peerguards.Corpus, error)
	}
	jobs := []job{{dcg, "", peerguards.DCG}, {sn, "", peerguards.SafetyNet}, {codex, codexCommit, peerguards.Codex}}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, j := range jobs {
		src, err := peerguards.Open(j.dir, j.commit)
		if err != nil {
			return err
		}
		c, err := j.read(src)
		if err != nil {
			return err
		}
		if err := peerguards.Write(out, c); err != nil {
			return err
		}
		fmt.Printf("%s @ %.12s: %d block, %d ask, %d allow, %d skipped\n", c.Peer, c.Commit, c.Count(peerguards.Block), c.Count(peerguards.Ask), c.Count(peerguards.Allow), len(c.Skipped))
	}
	return nil
}
