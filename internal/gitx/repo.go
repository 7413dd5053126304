// Package gitx is the one place gitwarrant talks to Git (docs/design.md#code-shape: "internal/gitx
// the one place that talks to git"): repository discovery, the per-writer
// record refs (docs/design.md#the-record), trailers, hooks and the few porcelain calls that
// are cheaper to delegate than to reimplement.
//
// Speed matters here because every `gitwarrant check` commits its entry to
// refs/gitwarrant/<writer>. Discovery therefore reads `.git` itself instead
// of spawning `git rev-parse` (a process costs about as much as the whole
// commit), objects are read and written in process (objects.go: loose
// objects written directly, packs read in place, docs/record.md#reading-packs), and refs are moved with Git's own lock-file
// protocol (see refs.go) rather than go-git's in-place rewrite, which a
// SIGKILL can leave empty.
//
// In process vs plumbing, measured (bench/record_git.sh, 5,000 commits, a
// 100,000-entry chain): one git process costs about as much as `git
// rev-parse HEAD` (~5 ms here), and the plumbing route needs five per event
// (hash-object, two mktree, commit-tree, update-ref) before any work.
// Writing the four loose objects in process takes well under a millisecond,
// so `gitwarrant check` with its commit (~17 ms static, ~20 ms default
// build) stays under one `git commit` (~23 ms) in the same run.
package gitx

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNotRepo is returned (wrapped) when a directory is in no Git work tree.
var ErrNotRepo = errors.New("not inside a git work tree")

// Repo is a discovered, non-bare Git repository seen from one work tree.
type Repo struct {
	// WorkTree is the top of the work tree.
	WorkTree string
	// GitDir is this work tree's git dir (`git rev-parse --git-dir`); for a
	// linked worktree it is .git/worktrees/<name>.
	GitDir string
	// CommonDir holds objects and shared refs (`git rev-parse
	// --git-common-dir`); equal to GitDir except in linked worktrees.
	CommonDir string

	packs    packs     // pack indexes, loaded on the first object not found loose
	revtrees revtrees  // trees DirAt has read (revtree.go)
	batch    *catBatch // packed objects read through git (batch.go)
}

// Discover finds the repository whose work tree contains dir, walking up.
// A `.git` file (linked worktree, submodule) is followed; a submodule is
// thus its own repository, as docs/design.md#the-record needs. A
// repository gitwarrant cannot write safely (SHA-256 objects, reftable
// refs) is an error wrapping ErrUnsupported, so nothing is ever written
// to one.
func Discover(dir string) (*Repo, error) {
	r, err := Locate(dir)
	if err != nil {
		return nil, err
	}
	if err := checkFormat(r.CommonDir); err != nil {
		return nil, err
	}
	return r, nil
}

// Locate is Discover without the format check, for callers that only need
// the repository's paths and write nothing through it: the hook's guard
// protects a refused repository's hooks as well.
func Locate(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() {
				if gitDir, err = readGitFile(dotgit); err != nil {
					return nil, err
				}
			}
			return &Repo{WorkTree: d, GitDir: gitDir, CommonDir: commonDir(gitDir)}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		d = parent
	}
}

// readGitFile resolves a `.git` file ("gitdir: <path>").
func readGitFile(path string) (string, error) {
	b, err := ReadFile(path)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(string(b))
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitdir file (want \"gitdir: <path>\") — repair or remove it", path)
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target), nil
}

// commonDir follows <gitdir>/commondir, which linked worktrees carry.
func commonDir(gitDir string) string {
	b, err := ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// Linked reports whether this is a linked worktree (`git worktree add`).
func (r *Repo) Linked() bool { return r.GitDir != r.CommonDir }

// Rel returns path relative to the work tree, slash-separated, as Git
// names paths in trees and trailers.
func (r *Repo) Rel(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r.WorkTree, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the work tree %s", path, r.WorkTree)
	}
	return filepath.ToSlash(rel), nil
}

// Git runs git in the work tree and returns its stdout. The error carries
// git's stderr, so callers can show what git said.
func (r *Repo) Git(args ...string) ([]byte, error) {
	return r.GitInput(nil, args...)
}

// GitInput is Git with stdin.
func (r *Repo) GitInput(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.WorkTree
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return out.Bytes(), fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out.Bytes(), nil
}

// Head describes what HEAD points at in this work tree.
type Head struct {
	// Branch is the short branch name ("main", "feature/x"), or "" when
	// HEAD is detached.
	Branch string
	// Detached is true when HEAD holds a commit id.
	Detached bool
}

// ReadHead reads <gitdir>/HEAD directly (no process). An unborn branch
// (a repository with no commits yet) still names its branch.
func (r *Repo) ReadHead() (Head, error) {
	b, err := ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return Head{}, fmt.Errorf("reading HEAD: %w — is %s a git repository?", err, r.GitDir)
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		return Head{Branch: strings.TrimPrefix(ref, "refs/heads/")}, nil
	}
	return Head{Detached: true}, nil
}

// Operation names a multi-step Git operation in progress in this work
// tree ("rebase", "merge", "cherry-pick", "revert"), or "" when none.
// Hooks stay out of the way while one runs (docs/design.md#the-record, issue 3).
func (r *Repo) Operation() string {
	for _, c := range []struct{ path, op string }{
		{"rebase-merge", "rebase"},
		{"rebase-apply", "rebase"},
		{"MERGE_HEAD", "merge"},
		{"CHERRY_PICK_HEAD", "cherry-pick"},
		{"REVERT_HEAD", "revert"},
	} {
		if _, err := os.Stat(filepath.Join(r.GitDir, c.path)); err == nil {
			return c.op
		}
	}
	return ""
}

// HeadCommit is the commit HEAD names, read in process ("" when unborn or
// unreadable).
func (r *Repo) HeadCommit() string {
	b, err := ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		h, err := r.ReadRef(strings.TrimSpace(ref))
		if err != nil || h.IsZero() {
			return ""
		}
		return h.String()
	}
	return s
}

// HooksDir is the directory git runs hooks from, as git itself resolves it
// (`git rev-parse --git-path hooks`): core.hooksPath from any config file
// git reads — includes and includeIf too — relative to the work tree root,
// else hooks/ in the common dir shared by linked worktrees
// (docs/hook-protocol.md#git-hooks). Install and the guard both ask here, so
// they never disagree about where the hooks are.
func (r *Repo) HooksDir() (string, error) {
	out, err := r.Git("rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("finding the git hooks directory: %w", err)
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(r.WorkTree, dir)
	}
	return filepath.Clean(dir), nil
}
