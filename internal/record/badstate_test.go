package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadStatesGiveClearErrorsAndLoseNothing covers a deleted record file,
// a missing ref, a ref moved elsewhere, an unwritable .git/gitwarrant and a
// ref that cannot be written (the disk-full stand-in; tests run as root,
// where a read-only mode is no obstacle, so a file is put where a
// directory must go).
func TestBadStatesGiveClearErrorsAndLoseNothing(t *testing.T) {
	t.Run("record file deleted", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		appendN(t, r, 3, "work")
		path := r.ChainPath(writerOf(t, r))
		os.Remove(path)
		_, err := r.Append(note("after delete"))
		if err == nil || !strings.Contains(err.Error(), "file is missing but the ref holds 3 entries") || !strings.Contains(err.Error(), "git ls-tree") {
			t.Fatalf("err = %v", err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Fatal("append recreated the deleted file as a new chain")
		}
		if got := refContent(t, dir, "refs/gitwarrant/"+writerOf(t, r)); strings.Count(got, "\n") != 3 {
			t.Fatalf("ref lost entries: %d lines", strings.Count(got, "\n"))
		}
	})
	t.Run("ref missing", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		appendN(t, r, 3, "work")
		w := writerOf(t, r)
		git(t, dir, "update-ref", "-d", "refs/gitwarrant/"+w)
		if _, err := r.Append(note("rebuild")); err != nil {
			t.Fatal(err)
		}
		file, _ := os.ReadFile(r.ChainPath(w))
		if refContent(t, dir, "refs/gitwarrant/"+w) != string(file) {
			t.Fatal("ref not rebuilt from the file")
		}
		if log := git(t, dir, "log", "--format=%s", "refs/gitwarrant/"+w); !strings.Contains(log, "catch up 3 entries") {
			t.Fatalf("log:\n%s", log)
		}
	})
	t.Run("ref points elsewhere", func(t *testing.T) {
		dir, p := newRepo(t)
		r := openT(t, p)
		appendN(t, r, 2, "work")
		w := writerOf(t, r)
		git(t, dir, "update-ref", "refs/gitwarrant/"+w, "HEAD")
		before, _ := os.ReadFile(r.ChainPath(w))
		_, err := r.Append(note("x"))
		if err == nil || !strings.Contains(err.Error(), "not a gitwarrant record commit") || !strings.Contains(err.Error(), "update-ref -d") {
			t.Fatalf("err = %v", err)
		}
		after, _ := os.ReadFile(r.ChainPath(w))
		if string(before) != string(after) {
			t.Fatal("file changed although the append was refused")
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
		git(t, dir, "update-ref", "-d", "refs/gitwarrant/"+w)
		refsDir := filepath.Join(dir, ".git", "refs", "gitwarrant")
		os.RemoveAll(refsDir)
		os.WriteFile(refsDir, []byte("in the way\n"), 0o444)
		e, err := r.Append(note("kept"))
		var refErr *RefError
		if !errors.As(err, &refErr) || e.Seq != 3 {
			t.Fatalf("want a RefError for entry 3, got %v (%+v)", err, e)
		}
		os.Remove(refsDir)
		if _, err := r.Append(note("after the fix")); err != nil {
			t.Fatal(err)
		}
		file, _ := os.ReadFile(r.ChainPath(w))
		if strings.Count(string(file), "\n") != 4 || refContent(t, dir, "refs/gitwarrant/"+w) != string(file) {
			t.Fatal("entries lost or ref not caught up")
		}
	})
}
