package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadStatesGiveClearErrorsAndLoseNothing covers a missing ref, a ref
// moved elsewhere, an unwritable .git/gitwarrant and a ref that cannot be
// written (the disk-full stand-in; tests run as root, where a read-only
// mode is no obstacle, so a file is put where a directory must go).
func TestBadStatesGiveClearErrorsAndLoseNothing(t *testing.T) {
	for _, cut := range []bool{false, true} {
		t.Run(fmt.Sprintf("known writer's ref deleted, file cut %v", cut), func(t *testing.T) {
			dir, p := newRepo(t)
			installHooks(t, dir)
			r := openT(t, p)
			appendN(t, r, 3, "work")
			w := writerOf(t, r)
			if cut {
				commitWork(t, dir, "a.txt", "carry the chain")
				seg := filepath.Join(r.WriterDir(w), segName(1, 3))
				b, _ := os.ReadFile(seg)
				os.Remove(seg)
				// an agent's script re-hashes a shorter chain under a new name
				os.WriteFile(filepath.Join(r.WriterDir(w), segName(1, 1)), b[:strings.IndexByte(string(b), '\n')+1], 0o644)
			}
			git(t, dir, "update-ref", "-d", "refs/gitwarrant/"+w)
			_, err := r.Append(note("rebuild"))
			var gone *RefGoneError
			if !errors.As(err, &gone) || gone.Writer != w || !strings.Contains(err.Error(), "nothing was recorded") {
				t.Fatalf("err = %v", err)
			}
			out, code := gw(t, dir, "record", "verify")
			if code != 1 || !strings.Contains(out, "ref gone") || !strings.Contains(out, "writer "+w) {
				t.Fatalf("verify exit %d:\n%s", code, out)
			}
			if _, err := gitErr(dir, "rev-parse", "-q", "--verify", "refs/gitwarrant/"+w); err == nil {
				t.Fatal("the ref was rebuilt")
			}
			if out, err := gitErr(dir, "commit", "-q", "--allow-empty", "-m", "x"); err == nil {
				t.Fatalf("commit went ahead with the ref gone:\n%s", out)
			}
		})
	}
	t.Run("ref points elsewhere", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		appendN(t, r, 2, "work")
		w := writerOf(t, r)
		git(t, dir, "update-ref", "refs/gitwarrant/"+w, "HEAD")
		_, err := r.Append(note("x"))
		if err == nil || !strings.Contains(err.Error(), "not a gitwarrant record commit") || !strings.Contains(err.Error(), "nothing was recorded") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run(".git/gitwarrant unwritable", func(t *testing.T) {
		dir, p := newRepo(t)
		os.WriteFile(filepath.Join(dir, ".git", "gitwarrant"), []byte("in the way\n"), 0o444)
		r := openT(t, p)
		_, err := r.Append(note("x"))
		if err == nil || !strings.Contains(err.Error(), "cannot write it") || !strings.Contains(err.Error(), "nothing was recorded") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ref cannot be written", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		appendN(t, r, 2, "work")
		w := writerOf(t, r)
		ref := filepath.Join(dir, ".git", "refs", "gitwarrant", w)
		head := git(t, dir, "rev-parse", "refs/gitwarrant/"+w)
		os.Remove(ref)
		os.MkdirAll(filepath.Join(ref+".lock", "x"), 0o755) // the ref's lock cannot be created
		os.WriteFile(ref, []byte(head), 0o644)
		if _, err := r.Append(note("lost?")); err == nil || !strings.Contains(err.Error(), "nothing was recorded") {
			t.Fatalf("err = %v", err)
		}
		os.RemoveAll(ref + ".lock")
		e, err := r.Append(note("after the fix"))
		if err != nil || e.Seq != 3 {
			t.Fatalf("append after the fix: %v %+v", err, e)
		}
		mustVerify(t, r)
	})
}
