package record

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopiedCheckoutTakesANewWriterMovedKeepsIt: `cp -a` of a checkout
// (a VM image, a CI cache) keeps the clone id file; the copy notices the
// original at the recorded path, takes a new id and says so, and the two
// chains merge without a conflict. A moved checkout keeps its writer.
func TestCopiedCheckoutTakesANewWriterMovedKeepsIt(t *testing.T) {
	dir, p := newRepo(t)
	installHooks(t, dir)
	r := openT(t, p)
	appendN(t, r, 3, "original")
	commitWork(t, dir, "a.txt", "original work")
	w := writerOf(t, r)

	cp := filepath.Join(t.TempDir(), "copy")
	if out, err := exec.Command("cp", "-a", dir, cp).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	rc := openT(t, projectAt(cp))
	var warn bytes.Buffer
	rc.Warn = &warn
	appendN(t, rc, 2, "copy")
	wc := writerOf(t, rc)
	if wc == w || !strings.HasPrefix(wc, "main-") {
		t.Fatalf("copy writes as %q, the original as %q", wc, w)
	}
	if !strings.Contains(warn.String(), "is a copy of "+dir) || !strings.Contains(warn.String(), "new writer") {
		t.Fatalf("the copy did not say so: %q", warn.String())
	}
	commitWork(t, cp, "b.txt", "copy work")
	appendN(t, r, 2, "original again")
	commitWork(t, dir, "c.txt", "original again")

	// the original pulls the copy's branch: two folders, no conflict
	git(t, dir, "fetch", "-q", cp, "main:copy-main")
	if out, code := gw(t, dir, "record", "fetch", cp); code != 0 || !strings.Contains(out, "new      refs/gitwarrant/"+wc) {
		t.Fatalf("record fetch exit %d:\n%s", code, out)
	}
	git(t, dir, "merge", "-q", "--no-edit", "copy-main")
	mustVerify(t, r)
	if out, code := gw(t, dir, "record", "verify"); code != 0 || !strings.Contains(out, wc) {
		t.Fatalf("verify exit %d:\n%s", code, out)
	}

	// a moved checkout (the original path gone) keeps its writer, silently
	moved := filepath.Join(t.TempDir(), "moved")
	if err := os.Rename(cp, moved); err != nil {
		t.Fatal(err)
	}
	rm := openT(t, projectAt(moved))
	warn.Reset()
	rm.Warn = &warn
	appendN(t, rm, 1, "moved")
	if got := writerOf(t, rm); got != wc || warn.Len() != 0 {
		t.Fatalf("moved checkout writes as %q (was %q), said %q", got, wc, warn.String())
	}
}
