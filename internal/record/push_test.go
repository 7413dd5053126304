package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refuseBig is a pre-receive hook that refuses any pushed blob over 50 MB,
// as GitHub refuses files over 100 MB and warns from 50 MB.
const refuseBig = `#!/bin/sh
while read old new ref; do
  case $new in 0000000000000000000000000000000000000000) continue ;; esac
  range=$new
  case $old in 0000000000000000000000000000000000000000) ;; *) range="$old..$new" ;; esac
  git rev-list --objects $range | git cat-file --batch-check='%(objecttype) %(objectsize) %(rest)' |
    awk '$1 == "blob" && $2 > 52428800 { print "refused: " $3 " is " $2 " bytes"; bad = 1 } END { exit bad }' || exit 1
done
`

// TestLongRecordPushesUnderFileLimit: a record of 120,000 entries (about
// 55 MB) is carried in segments of about 1 MB, so a push to a remote that
// refuses files over 50 MB goes through, branch and record refs alike.
func TestLongRecordPushesUnderFileLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 55 MB record")
	}
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	bulkAppend(t, r, 120000, "a long record")
	commitWork(t, dir, "a.txt", "carry the record")
	remote := filepath.Join(t.TempDir(), "remote.git")
	git(t, dir, "init", "-q", "--bare", remote)
	os.WriteFile(filepath.Join(remote, "hooks", "pre-receive"), []byte(refuseBig), 0o755)
	git(t, dir, "remote", "add", "origin", remote)
	// the hook is live: a 51 MB file is refused
	big := filepath.Join(dir, "big.bin")
	os.WriteFile(big, []byte(strings.Repeat("x", 51<<20)), 0o644)
	git(t, dir, "add", "big.bin")
	git(t, dir, "commit", "-q", "--no-verify", "-m", "big")
	if out, err := gitErr(dir, "push", "-q", "origin", "main"); err == nil || !strings.Contains(out, "refused: big.bin") {
		t.Fatalf("the size hook let a 51 MB file through: %v\n%s", err, out)
	}
	git(t, dir, "reset", "-q", "--hard", "HEAD~1")
	if out, err := gitErr(dir, "push", "-q", "origin", "main"); err != nil {
		t.Fatalf("push of the branch: %v\n%s", err, out)
	}
	if out, code := gw(t, dir, "record", "push"); code != 0 {
		t.Fatalf("record push: %s", out)
	}
	mustVerify(t, r)
}
