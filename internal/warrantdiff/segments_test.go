package warrantdiff

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

const segLoop = "---\nname: deploy\nwarrant:\n  send: [push to main]\n---\n"

// A chain kept as a folder of "<from>-<to>.jsonl" files: the diff finds
// the amends past base's last seq by file name, in base..head and in the
// work tree, and a sealed file replacing deltas is read once.
func TestAmendsInSegmentFolders(t *testing.T) {
	for _, tool := range []string{"git", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "k")
	run(t, dir, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ada", "-f", key)
	pub, _ := os.ReadFile(key + ".pub")
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, ".gitwarrant", "loops"), 0o755)
	run(t, repo, "git", "init", "-q", "-b", "main")
	write := func(rel, s string) {
		p := filepath.Join(repo, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitwarrant/allowed_signers", "ada@example.com "+string(pub))
	write(".gitwarrant/loops/deploy.loop.md", segLoop)

	// The whole chain, made once: a note, then two signed amends.
	full := filepath.Join(dir, "w1.jsonl")
	f := &chain.File{Path: full}
	f.Append(chain.Entry{Kind: chain.KindNote, Note: "first"})
	f.Prepare = func(e chain.Entry) (chain.Entry, error) {
		msg, _ := amend.Message(e)
		s, err := sign.Sign(msg, sign.Key(key), io.Discard)
		if err != nil {
			return e, err
		}
		e.Extra["sig"] = s.Armored
		return e, nil
	}
	edited := strings.Replace(segLoop, "[push to main]", "[push to main, push to release/*]", 1)
	for _, p := range []string{"push to release/*", "tag releases"} {
		a := amend.Amend{Loop: "deploy", List: "send", Op: amend.OpAdd, Pattern: p, Before: loops.Digest([]byte(segLoop)), After: loops.Digest([]byte(edited)), Signer: "ada@example.com", Chain: "w1"}
		if _, err := f.Append(a.Entry()); err != nil {
			t.Fatal(err)
		}
	}
	raw, _ := os.ReadFile(full)
	lines := strings.SplitAfter(strings.TrimSuffix(string(raw), "\n"), "\n")

	write(".gitwarrant/record/w1/000000001-000000001.jsonl", lines[0])
	run(t, repo, "git", "add", "-A")
	run(t, repo, "git", "commit", "-q", "-m", "base")
	run(t, repo, "git", "tag", "base")

	// head: a delta file with entry 2, then entry 3 in a second delta; the
	// work tree then replaces both with one file 1-3.
	write(".gitwarrant/loops/deploy.loop.md", strings.Replace(segLoop, "[push to main]", "[push to main, push to release/*, tag releases]", 1))
	write(".gitwarrant/record/w1/000000002-000000002.jsonl", lines[1])
	write(".gitwarrant/record/w1/000000003-000000003.jsonl", lines[2])
	run(t, repo, "git", "add", "-A")
	run(t, repo, "git", "commit", "-q", "-m", "head")
	os.Remove(filepath.Join(repo, ".gitwarrant/record/w1/000000002-000000002.jsonl"))
	os.Remove(filepath.Join(repo, ".gitwarrant/record/w1/000000003-000000003.jsonl"))
	os.Remove(filepath.Join(repo, ".gitwarrant/record/w1/000000001-000000001.jsonl"))
	write(".gitwarrant/record/w1/000000001-000000003.jsonl", string(raw))

	r, err := gitx.Discover(repo)
	if err != nil {
		t.Fatal(err)
	}
	base, err := FromRev(r, ".gitwarrant", "base")
	if err != nil {
		t.Fatal(err)
	}
	signers, err := ParseSigners(base)
	if err != nil {
		t.Fatal(err)
	}
	heads := map[string]func() (*Snapshot, error){
		"HEAD":      func() (*Snapshot, error) { return FromRev(r, ".gitwarrant", "HEAD") },
		"work tree": func() (*Snapshot, error) { return FromWorkTree(r, filepath.Join(repo, ".gitwarrant")) },
	}
	for name, load := range heads {
		head, err := load()
		if err != nil {
			t.Fatal(err)
		}
		changes := Compare(base, head)
		found, err := NewAmends(r, base, head, signers)
		if err != nil {
			t.Fatal(err)
		}
		Attach(changes, found)
		var b bytes.Buffer
		Text(&b, "base", name, changes)
		if len(found) != 2 || strings.Count(b.String(), "signed by ada@example.com (w1#") != 2 || strings.Contains(b.String(), "— unsigned") {
			t.Errorf("%s: %d amends found\n%s", name, len(found), b.String())
		}
	}
}
