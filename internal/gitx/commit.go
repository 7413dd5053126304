package gitx

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// CommitOnly commits exactly paths (relative to the work tree, as they are
// in the work tree) on top of HEAD in one commit, through a temporary index
// that holds HEAD plus those paths: whatever else the person has staged or
// left unstaged is untouched, and their hooks run as for any commit. After
// the commit the real index takes the committed version of those paths, so
// they do not show as staged reversions. It returns the new commit id.
func (r *Repo) CommitOnly(paths []string, msg string, out, errw io.Writer) (string, error) {
	tmp, err := os.CreateTemp(r.GitDir, "gitwarrant-index-")
	if err != nil {
		return "", fmt.Errorf("creating a temporary index: %w", err)
	}
	tmp.Close()
	os.Remove(tmp.Name()) // git must create it: an empty file is not an index
	defer os.Remove(tmp.Name())
	env := append(os.Environ(), "GIT_INDEX_FILE="+tmp.Name())
	if _, err := r.Git("rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		if _, err := r.gitEnv(env, nil, nil, nil, "read-tree", "HEAD"); err != nil {
			return "", err
		}
	}
	// add -A takes files and folders (a chain kept as a folder of
	// segments) as they are in the work tree, deletions included.
	if _, err := r.gitEnv(env, nil, nil, nil, append([]string{"add", "-A", "--"}, paths...)...); err != nil {
		return "", err
	}
	if _, err := r.gitEnv(env, []byte(msg), out, errw, "commit", "-q", "-F", "-"); err != nil {
		return "", err
	}
	id, err := r.Git("rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	if _, err := r.Git(append([]string{"reset", "-q", "HEAD", "--"}, paths...)...); err != nil {
		return "", fmt.Errorf("the commit was made, but the index was not updated for %s: %w", strings.Join(paths, ", "), err)
	}
	return strings.TrimSpace(string(id)), nil
}

// gitEnv runs git with env and stdin. Output is captured (stderr goes
// into the error) and also copied to out and errw when they are set.
func (r *Repo) gitEnv(env []string, stdin []byte, out, errw io.Writer, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Dir = r.WorkTree
	cmd.Env = env
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if out != nil {
		cmd.Stdout = io.MultiWriter(&so, out)
	}
	if errw != nil {
		cmd.Stderr = io.MultiWriter(&se, errw)
	}
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(se.String())
		if msg == "" {
			msg = err.Error()
		}
		return so.Bytes(), fmt.Errorf("git %s: %s", args[0], msg)
	}
	return so.Bytes(), nil
}

// Dirty reports whether path (relative to the work tree) differs between
// HEAD, the index and the work tree.
func (r *Repo) Dirty(path string) (bool, error) {
	out, err := r.Git("status", "--porcelain", "--untracked-files=all", "--", path)
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(out)) > 0, nil
}

// Config returns `git config --get key`, or "" when unset.
func (r *Repo) Config(key string) string {
	out, err := r.Git("config", "--get", key)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// ErrNoUpstream is a branch with no upstream branch set.
var ErrNoUpstream = errors.New("no upstream branch")

// MergeBaseUpstream is the merge base of HEAD with its upstream branch:
// ErrNoUpstream when there is none, and an error wrapping ErrShallow when
// a shallow clone does not hold the merge base — never "no upstream" for a
// clone that has one.
func (r *Repo) MergeBaseUpstream() (string, error) {
	up, err := r.Git("rev-parse", "-q", "--verify", "--symbolic-full-name", "@{upstream}")
	if err != nil {
		return "", ErrNoUpstream
	}
	out, err := r.Git("merge-base", "HEAD", "@{upstream}")
	if err != nil {
		name := strings.TrimPrefix(strings.TrimSpace(string(up)), "refs/remotes/")
		if r.IsShallow() {
			return "", fmt.Errorf("the merge base of HEAD and its upstream %s is not in this clone: %w", name, ErrShallow)
		}
		return "", fmt.Errorf("HEAD and its upstream %s share no commit", name)
	}
	return strings.TrimSpace(string(out)), nil
}
