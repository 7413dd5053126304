package peerguards

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Source is a peer's repository as it is on disk: a git directory (read at
// a revision with git itself, nothing checked out) or a plain folder such as
// a sparse checkout.
type Source struct {
	Dir    string
	Rev    string // for a git directory; HEAD when empty
	commit string
	git    bool
}

// Open opens dir as a Source. commit names the revision a plain folder was
// taken from (it is recorded, not checked); for a git directory it is the
// revision to read, HEAD when empty.
func Open(dir, commit string) (*Source, error) {
	s := &Source{Dir: dir, Rev: commit}
	if st, err := os.Stat(filepath.Join(dir, "objects")); err == nil && st.IsDir() {
		s.git = true
		if s.Rev == "" {
			s.Rev = "HEAD"
		}
		out, err := s.gitOut("rev-parse", s.Rev+"^{commit}")
		if err != nil {
			return nil, err
		}
		s.commit = strings.TrimSpace(out)
		return s, nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("open peer source: %w", err)
	}
	s.commit = commit
	return s, nil
}

// Commit is the commit the files are read at.
func (s *Source) Commit() string { return s.commit }

func (s *Source) gitOut(args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"--git-dir=" + s.Dir}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s in %s: %w", strings.Join(args, " "), s.Dir, err)
	}
	return string(out), nil
}

// Files lists the files under dir (a slash path inside the repository)
// whose names end in one of exts, sorted.
func (s *Source) Files(dir string, exts ...string) ([]string, error) {
	var all []string
	if s.git {
		out, err := s.gitOut("ls-tree", "-r", "--name-only", s.commit, "--", dir)
		if err != nil {
			return nil, err
		}
		all = strings.Fields(out)
	} else {
		root := filepath.Join(s.Dir, filepath.FromSlash(dir))
		if _, err := os.Stat(root); err != nil {
			return nil, nil // as git ls-tree: a folder the repository does not have lists nothing
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(s.Dir, p)
			all = append(all, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", root, err)
		}
	}
	var out []string
	for _, f := range all {
		for _, e := range exts {
			if strings.HasSuffix(path.Base(f), e) {
				out = append(out, f)
				break
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// Read returns the text of the file at p (a slash path inside the
// repository).
func (s *Source) Read(p string) (string, error) {
	if s.git {
		return s.gitOut("show", s.commit+":"+p)
	}
	b, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(p)))
	return string(b), err
}
