package record

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Writers (docs/design.md#the-record "One chain per writer"). A writer is one line of
// history in one clone; its chain is record/<writer>.jsonl and its ref
// refs/gitwarrant/<writer>. The name is <branch-slug>-<id>:
//
//   - id is the clone id, random, made once per clone and kept in
//     <common git dir>/gitwarrant/clone-id, so two clones never share a
//     writer. A linked worktree (`git worktree add`) uses its own id, kept
//     in its per-worktree git dir, so two worktrees never share one either
//     (both may be detached at once).
//   - branch-slug is the branch name folded to [a-z0-9-], at most 40
//     characters. A repository with no commits yet uses its unborn
//     branch's name; a detached HEAD uses "detached".
//   - A submodule is its own repository, with its own clone id.
//   - Outside any Git repository the record is one plain chain, "local".
//
// The choice is made on the first append on a branch and remembered in
// <git dir>/gitwarrant/writers ("<branch>\t<writer>" lines, never
// committed), so a later change to the slug rules cannot move a branch to a
// new chain, and two branches whose slugs collide ("feature/a",
// "feature-a") get distinct writers.

// LocalWriter is the writer outside any Git repository.
const LocalWriter = "local"

const (
	stateDir    = "gitwarrant"
	cloneIDFile = "clone-id"
	worktreeID  = "worktree-id"
	writersFile = "writers"
	maxSlug     = 40
)

// Writer returns this work tree's writer for the current branch, choosing
// and remembering it on first use.
func (r *Record) Writer() (string, error) {
	if r.repo == nil {
		return LocalWriter, nil
	}
	head, err := r.repo.ReadHead()
	if err != nil {
		return "", err
	}
	id, err := r.writerID()
	if err != nil {
		return "", err
	}
	if head.Detached {
		return "detached-" + id, nil
	}
	known, err := r.knownWriters()
	if err != nil {
		return "", err
	}
	for _, kw := range known {
		if kw.branch == head.Branch {
			return kw.writer, nil
		}
	}
	w := uniqueWriter(Slug(head.Branch)+"-"+id, known)
	if err := r.rememberWriter(head.Branch, w); err != nil {
		return "", err
	}
	return w, nil
}

// uniqueWriter adds -2, -3, … when another branch already has the name.
func uniqueWriter(w string, known []branchWriter) string {
	taken := map[string]bool{}
	for _, kw := range known {
		taken[kw.writer] = true
	}
	cand := w
	for n := 2; taken[cand]; n++ {
		cand = fmt.Sprintf("%s-%d", w, n)
	}
	return cand
}

// Slug folds a branch name to [a-z0-9-], at most 40 characters.
func Slug(branch string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(branch) {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if ok {
			b.WriteRune(c)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > maxSlug {
		s = strings.TrimRight(s[:maxSlug], "-")
	}
	if s == "" {
		s = "branch"
	}
	return s
}

// writerID is the clone id, or a linked worktree's own id
// (docs/record.md#writers).
func (r *Record) writerID() (string, error) {
	if r.repo.Linked() {
		return r.ensureID(filepath.Join(r.repo.GitDir, stateDir, worktreeID), r.repo.GitDir)
	}
	return r.ensureID(filepath.Join(r.repo.CommonDir, stateDir, cloneIDFile), r.repo.CommonDir)
}

// ensureID reads the id at path, creating it exactly once even when
// several processes race. The file holds "<id>\t<git dir>": the absolute
// git dir the id was made in. Found under another git dir, the checkout
// was copied or moved: if the original still holds the same id there, it
// is a copy (cp -a, a VM image, a CI cache) and takes a new id, so two
// checkouts never write one chain; if not, it was moved and keeps its id.
func (r *Record) ensureID(path, gitDir string) (string, error) {
	here, _ := filepath.Abs(gitDir)
	id, made, err := readID(path)
	if err != nil {
		return "", err
	}
	switch {
	case id == "":
		return createID(path, here, "")
	case made == here:
		return id, nil
	case made != "" && sameID(filepath.Join(made, stateDir, filepath.Base(path)), id):
		newID, err := createID(path, here, id)
		if err != nil {
			return "", err
		}
		r.forgetWriters()
		if r.Warn != nil {
			fmt.Fprintf(r.Warn, "gitwarrant: this checkout is a copy of %s (same clone id %s): it records as a new writer, clone id %s\n", filepath.Dir(made), id, newID)
		}
		return newID, nil
	default: // moved, or an id written before paths were kept
		if err := writeIDFile(path, id, here); err != nil {
			return "", err
		}
		return id, nil
	}
}

// readID returns the id and the git dir it was made in ("" for the old
// one-field format); both empty when there is none.
func readID(path string) (id, made string, err error) {
	b, err := gitx.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", stateErr(path, err)
	}
	id, made, _ = strings.Cut(strings.TrimSpace(string(b)), "\t")
	return strings.TrimSpace(id), strings.TrimSpace(made), nil
}

func sameID(path, id string) bool {
	other, _, err := readID(path)
	return err == nil && other == id
}

// createID makes a random id. With old == "" it links a temp file into
// place, so the first of several racing processes wins; replacing a
// copied id renames over it, unless a racing process already did.
func createID(path, gitDir, old string) (string, error) {
	var raw [6]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(raw[:])
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", stateErr(path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".id-*")
	if err != nil {
		return "", stateErr(path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(id + "\t" + gitDir + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", stateErr(path, err)
	}
	if old == "" {
		if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
			return "", stateErr(path, err)
		}
	} else if cur, _, _ := readID(path); cur == old {
		if err := os.Rename(tmp.Name(), path); err != nil {
			return "", stateErr(path, err)
		}
	}
	got, _, err := readID(path)
	return got, err
}

func writeIDFile(path, id, gitDir string) error {
	if err := fsx.WriteAtomic(path, []byte(id+"\t"+gitDir+"\n"), 0o644); err != nil {
		return stateErr(path, err)
	}
	return nil
}

// forgetWriters moves a copied checkout's branch→writer choices aside:
// they name the original's writers.
func (r *Record) forgetWriters() {
	p := r.writersPath()
	os.Rename(p, p+".copied")
}

func stateErr(path string, err error) error {
	return fmt.Errorf("gitwarrant keeps local state in %s and cannot write it: %w — make that directory writable (nothing was recorded)", filepath.Dir(path), err)
}

type branchWriter struct{ branch, writer string }

func (r *Record) writersPath() string {
	if r.repo == nil {
		return ""
	}
	return filepath.Join(r.repo.GitDir, stateDir, writersFile)
}

// knownWriters lists this work tree's remembered writers, first line for
// a branch winning (racing first appends may both add the same line).
func (r *Record) knownWriters() ([]branchWriter, error) {
	b, err := gitx.ReadFile(r.writersPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, stateErr(r.writersPath(), err)
	}
	var out []branchWriter
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		b, w, ok := strings.Cut(sc.Text(), "\t")
		if ok && w != "" && !seen[b] {
			seen[b] = true
			out = append(out, branchWriter{b, w})
		}
	}
	return out, sc.Err()
}

// rememberWriter appends one line with a single write (O_APPEND), so
// concurrent first appends interleave whole lines.
func (r *Record) rememberWriter(branch, writer string) error {
	path := r.writersPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return stateErr(path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return stateErr(path, err)
	}
	_, err = f.WriteString(branch + "\t" + writer + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return stateErr(path, err)
	}
	return nil
}
