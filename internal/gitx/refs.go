package gitx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrRefChanged is returned (wrapped) when a compare-and-swap finds the
// ref no longer at the expected commit.
var ErrRefChanged = errors.New("ref changed concurrently")

// ReadRef returns the commit a ref points at, or the zero hash when the
// ref does not exist. Loose refs win over packed-refs, as in Git.
func (r *Repo) ReadRef(name string) (plumbing.Hash, error) {
	b, err := ReadFile(r.refPath(name))
	if err == nil {
		s := strings.TrimSpace(string(b))
		if !plumbing.IsHash(s) {
			return plumbing.ZeroHash, fmt.Errorf("%s holds %q, not a commit id — restore it with `git update-ref %s <commit>` or delete it", r.refPath(name), s, name)
		}
		return plumbing.NewHash(s), nil
	}
	// ENOTDIR: a file where a ref directory should be means, as for git,
	// that no such loose ref exists.
	if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return plumbing.ZeroHash, fmt.Errorf("reading %s: %w", name, err)
	}
	return r.packedRef(name)
}

func (r *Repo) refPath(name string) string {
	return filepath.Join(r.CommonDir, filepath.FromSlash(name))
}

func (r *Repo) packedRef(name string) (plumbing.Hash, error) {
	b, err := ReadFile(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	// a small first buffer and no string per line: every command resolves
	// a ref or two, and a fresh 64 KB buffer is 16 page faults
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 41 && line[40] == ' ' && string(line[41:]) == name {
			return plumbing.NewHash(string(line[:40])), nil
		}
	}
	return plumbing.ZeroHash, sc.Err()
}

// staleLockAge is how old a ref lock must be before UpdateRef treats it as
// left behind by a killed process. Record refs are only written under the
// writer's lock, so a lock file that outlives this was not made by a live
// gitwarrant; a concurrent `git pack-refs` holds it for milliseconds.
const staleLockAge = 2 * time.Second

// UpdateRef moves ref name from old to new with Git's lock-file protocol:
// create <ref>.lock exclusively, check the current value, write, rename.
// The rename is atomic, so a SIGKILL at any point leaves either the old or
// the new value, never an empty ref (go-git's SetReference truncates in
// place). old == ZeroHash means the ref must not exist yet.
func (r *Repo) UpdateRef(name string, newHash, old plumbing.Hash) error {
	path := r.refPath(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	lock, err := r.lockRef(path)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			lock.Close()
			os.Remove(lock.Name())
		}
	}()
	cur, err := r.ReadRef(name)
	if err != nil {
		return err
	}
	if cur != old {
		return fmt.Errorf("%s is at %s, expected %s: %w", name, short(cur), short(old), ErrRefChanged)
	}
	if _, err := lock.WriteString(newHash.String() + "\n"); err != nil {
		return fmt.Errorf("writing %s: %w", lock.Name(), err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", lock.Name(), err)
	}
	if err := os.Rename(lock.Name(), path); err != nil {
		return fmt.Errorf("moving %s: %w", name, err)
	}
	committed = true
	return nil
}

// lockRef creates <path>.lock, clearing a stale one (see staleLockAge).
func (r *Repo) lockRef(path string) (*os.File, error) {
	lockPath := path + ".lock"
	deadline := time.Now().Add(staleLockAge + time.Second)
	for {
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("locking ref: %w — check that %s is writable", err, filepath.Dir(path))
		}
		if fi, serr := os.Stat(lockPath); serr == nil && time.Since(fi.ModTime()) > staleLockAge {
			if os.Remove(lockPath) == nil {
				continue
			} // a lock that cannot be removed falls through to the deadline
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s exists: another git process is updating the ref — retry, or remove the file if none is running", lockPath)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:12]
}
