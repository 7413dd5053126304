package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/hooks"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// The git hooks install wires (docs/design.md#the-record: the pre-commit hook anchors the
// record in the branch, the commit-msg hook adds Warrant-Head trailers).
var gitHookNames = hooks.Names

// ChainSuffix is appended to a foreign hook script that install moves aside
// so that gitwarrant's shim can run it first (and uninstall can move it
// back, byte for byte and with its mode, since it is a rename).
const ChainSuffix = ".pre-gitwarrant"

// shimMarker marks a hook script, or a line in a hook manager's script, as
// gitwarrant's. uninstall finds its work by this marker alone, so it works
// on a fresh clone with no install state.
const shimMarker = "gitwarrant:hook"

// InstallHint says how to get the binary; shown by hooks that cannot find it.
const InstallHint = "go install github.com/gitwarrant/gitwarrant/cmd/gitwarrant@latest"

// shimScript is the per-clone hook install writes into the hooks directory
// (hooks/<hook> in this repository, with the binary's absolute path).
func (p *Plan) shimScript(hook string) string {
	s, _ := hooks.Shim(hook, p.bin)
	return s
}

// gitLayout is where a repository's hooks live and who manages them.
type gitLayout struct {
	workTree  string
	hooksDir  string // effective hooks dir: core.hooksPath honoured, common dir for linked worktrees
	hooksPath string // raw core.hooksPath, "" when unset
}

// resolveGit finds the work tree holding root and its effective hooks dir,
// as git resolves it (gitx.Repo.HooksDir, docs/hook-protocol.md#git-hooks).
func resolveGit(root string) (*gitLayout, error) {
	r, err := gitx.Discover(root)
	if errors.Is(err, gitx.ErrUnsupported) {
		return nil, err // it says what and why
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not in a git work tree (%v); run `git init` first, or pass --no-git-hooks", root, err)
	}
	dir, err := r.HooksDir()
	if err != nil {
		return nil, fmt.Errorf("%v — check that git works here, or pass --no-git-hooks", err)
	}
	hp, _ := r.Git("config", "--get", "core.hooksPath") // exit 1 when unset
	return &gitLayout{workTree: r.WorkTree, hooksDir: dir, hooksPath: strings.TrimSpace(string(hp))}, nil
}

// huskyDir returns the directory of husky's user scripts when core.hooksPath
// points at husky (v9: .husky/_, older: .husky), else "".
func (g *gitLayout) huskyDir() string {
	hp := filepath.ToSlash(filepath.Clean(g.hooksPath))
	switch {
	case hp == HuskyDir+"/_" || strings.HasSuffix(hp, "/"+HuskyDir+"/_"):
		return filepath.Dir(g.absHooksPath())
	case hp == HuskyDir || strings.HasSuffix(hp, "/"+HuskyDir):
		return g.absHooksPath()
	}
	return ""
}

func (g *gitLayout) absHooksPath() string {
	if filepath.IsAbs(g.hooksPath) {
		return filepath.Clean(g.hooksPath)
	}
	return filepath.Join(g.workTree, g.hooksPath)
}

// hookFile is the state of one hook script.
type hookFile struct {
	data    []byte
	exists  bool
	symlink bool
	mode    fs.FileMode
}

func readHookFile(path string) (hookFile, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return hookFile{}, nil
	}
	if err != nil {
		return hookFile{}, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return hookFile{exists: true, symlink: true}, nil
	}
	if !fi.Mode().IsRegular() {
		return hookFile{}, fmt.Errorf("%s is a %s, not a hook script — move it aside, or pass --no-git-hooks", path, fi.Mode().Type())
	}
	data, err := os.ReadFile(path)
	return hookFile{data: data, exists: true, mode: fi.Mode().Perm()}, err
}

// ours reports whether the script is gitwarrant's shim: the marker opens a
// line of its header (a husky script with gitwarrant's line appended
// carries the marker at the end of a line, and is not a shim).
func (h hookFile) ours() bool {
	return !h.symlink && bytes.Contains(h.data, []byte("\n# "+shimMarker+" "))
}

// planShim installs gitwarrant's shim as hook in dir, chaining a foreign
// script that is already there.
func (p *Plan) planShim(dir, hook string) error {
	path := filepath.Join(dir, hook)
	cur, err := readHookFile(path)
	if err != nil {
		return err
	}
	want := []byte(p.shimScript(hook))
	switch {
	case !cur.exists:
		p.add(path, nil, false, 0o755, want)
	case cur.ours():
		p.add(path, cur.data, true, 0o755, want)
	default:
		chained := path + ChainSuffix
		if prev, err := readHookFile(chained); err != nil {
			return err
		} else if prev.exists {
			return fmt.Errorf("%s and %s both exist and neither is gitwarrant's shim; merge them by hand (or delete %s), then run install again", p.rel(path), p.rel(chained), p.rel(chained))
		}
		p.rename(path, chained, nil, false, cur.mode)
		p.add(path, nil, false, 0o755, want)
		p.Notices = append(p.Notices, fmt.Sprintf("kept your %s hook: it now runs first, from %s", hook, p.rel(chained)))
	}
	return nil
}

// planUnshim removes gitwarrant's shim and moves a chained original back.
// managerRuns reports whether a hook manager's configuration still
// configures this hook once uninstall has cut gitwarrant's lines.
func (p *Plan) planUnshim(dir, hook string, managerRuns func(owner string) bool) error {
	path := filepath.Join(dir, hook)
	cur, err := readHookFile(path)
	if err != nil {
		return err
	}
	chained := path + ChainSuffix
	prev, err := readHookFile(chained)
	if err != nil {
		return err
	}
	// A hook manager that installs its own script into a slot moves what
	// was there aside — lefthook to <hook>.old, the pre-commit framework to
	// <hook>.legacy. gitwarrant's script found there is install's, and goes.
	movedOurs := false
	for _, suffix := range []string{".old", ".legacy"} {
		aside, err := readHookFile(path + suffix)
		if err != nil {
			return err
		}
		if aside.exists && aside.ours() {
			p.remove(path+suffix, aside.data, aside.mode)
			movedOurs = movedOurs || suffix == ".old"
		}
	}
	switch {
	case !cur.exists:
	case cur.ours() && prev.exists:
		p.rename(chained, path, cur.data, true, cur.mode)
	case cur.ours():
		p.remove(path, cur.data, cur.mode)
	case movedOurs && slotOwner(cur, hook) == "lefthook" && !managerRuns("lefthook"):
		// lefthook put its script here in place of gitwarrant's, for a
		// hook only gitwarrant's lines configured: it goes too, and the
		// hook that was there before install comes back.
		if prev.exists {
			p.rename(chained, path, cur.data, true, cur.mode)
		} else {
			p.remove(path, cur.data, cur.mode)
		}
	case prev.exists:
		p.Notices = append(p.Notices, fmt.Sprintf("left %s alone: the %s hook in front of it is not gitwarrant's shim any more", p.rel(chained), hook))
	}
	return nil
}

// slotOwner says who wrote the script in a hook slot: "lefthook", "pre-commit"
// (the framework), "gitwarrant", "" when empty, else "other".
func slotOwner(h hookFile, hook string) string {
	switch {
	case !h.exists:
		return ""
	case h.symlink:
		return "other"
	case h.ours():
		return "gitwarrant"
	case bytes.Contains(h.data, []byte("File generated by pre-commit: https://pre-commit.com")):
		return "pre-commit"
	case bytes.Contains(h.data, []byte("lefthook")) && bytes.Contains(h.data, []byte(`run "`+hook+`"`)):
		return "lefthook"
	}
	return "other"
}
