package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// Change is one planned file edit. install and uninstall first plan every
// change (reading and checking every file), and only then write, so a
// malformed file anywhere means nothing is written anywhere (docs/design.md#enforcement-surfaces).
type Change struct {
	Path    string      // absolute path
	Rel     string      // path relative to the root, for messages
	Old     []byte      // current content; nil when the file is absent
	Existed bool        // whether the file exists now
	New     []byte      // content to write; ignored when Remove
	Remove  bool        // delete the file
	Mode    fs.FileMode // permission bits for the written file
	// RenameFrom, when set, moves that file to Path instead of writing:
	// chaining a foreign git hook keeps its bytes, mode and even a symlink.
	RenameFrom string
}

// Action says what a change does, for the summary.
func (c Change) Action() string {
	switch {
	case c.Remove:
		return "removed"
	case c.RenameFrom != "":
		return "moved"
	case !c.Existed:
		return "created"
	default:
		return "updated"
	}
}

// Plan is the ordered set of changes plus notices for the user.
type Plan struct {
	Root    string
	Changes []Change
	// Notices are printed to stderr: things install did not do and why.
	Notices []string
	// Manual are the gates install could not wire by itself, each with the
	// exact lines to add; install exits 1 when there are any, unless the
	// user passed --allow-manual.
	Manual []ManualStep

	bin             string       // the gitwarrant binary the per-clone shims call
	sandbox         *Sandbox     // the sandbox settings to write or remove (nil: none)
	st              *loadedState // what install wrote into the settings, read once (denyrules.go)
	lefthookChanged bool
}

// ManualStep is one gate install left to the user.
type ManualStep struct {
	Hook  string // the git hook: pre-commit, commit-msg
	File  string // the file to edit, relative to the root
	Why   string // why install did not do it
	Lines string // exactly what to add
}

func (p *Plan) manual(hook, file, why, lines string) {
	p.Manual = append(p.Manual, ManualStep{Hook: hook, File: file, Why: why, Lines: lines})
}

// fileState reads path, reporting absence as (nil, false, 0).
func fileState(path string) ([]byte, bool, fs.FileMode, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, 0, nil
	}
	if err != nil {
		return nil, false, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, 0, fmt.Errorf("%s is not a regular file (%s); gitwarrant edits only plain files — replace it or pass a --no-… flag to skip it", path, fi.Mode().Type())
	}
	data, err := os.ReadFile(path)
	return data, true, fi.Mode().Perm(), err
}

// add records a change from the current state to new content, skipping
// no-op writes so a second install changes no byte.
func (p *Plan) add(path string, old []byte, existed bool, mode fs.FileMode, newData []byte) {
	if existed && bytes.Equal(old, newData) {
		return
	}
	p.Changes = append(p.Changes, Change{Path: path, Rel: p.rel(path), Old: old, Existed: existed, New: newData, Mode: mode})
}

// rename records moving from to path, replacing path's current content
// (old, when existed) — which an undo puts back.
func (p *Plan) rename(from, path string, old []byte, existed bool, mode fs.FileMode) {
	p.Changes = append(p.Changes, Change{Path: path, Rel: p.rel(from) + " → " + p.rel(path),
		RenameFrom: from, Old: old, Existed: existed, Mode: mode})
}

// remove records deleting a file that exists.
func (p *Plan) remove(path string, old []byte, mode fs.FileMode) {
	p.Changes = append(p.Changes, Change{Path: path, Rel: p.rel(path), Old: old, Existed: true, Remove: true, Mode: mode})
}

func (p *Plan) rel(path string) string {
	if r, err := filepath.Rel(p.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// Apply writes every change, each atomically (temp file + rename). If one
// fails, the changes already made are undone from their recorded old
// content, so the tree is left as it was.
func (p *Plan) Apply() error {
	for i, c := range p.Changes {
		if err := applyOne(c); err != nil {
			for j := i - 1; j >= 0; j-- {
				undo(p.Changes[j])
			}
			return fmt.Errorf("writing %s: %w — nothing was changed; fix the cause and run again", c.Rel, err)
		}
	}
	return nil
}

func applyOne(c Change) error {
	if c.RenameFrom != "" {
		return os.Rename(c.RenameFrom, c.Path)
	}
	if c.Remove {
		if err := os.Remove(c.Path); err != nil {
			return err
		}
		pruneEmptyDirs(filepath.Dir(c.Path))
		return nil
	}
	return fsx.WriteAtomic(c.Path, c.New, c.Mode)
}

func undo(c Change) {
	if c.RenameFrom != "" {
		_ = os.Rename(c.Path, c.RenameFrom)
		if c.Existed {
			_ = fsx.WriteAtomic(c.Path, c.Old, c.Mode)
		}
		return
	}
	if c.Existed {
		_ = fsx.WriteAtomic(c.Path, c.Old, c.Mode)
		return
	}
	_ = os.Remove(c.Path)
}

// pruneEmptyDirs removes dir and its parents while they are empty and are
// among the directories install creates for context and settings files
// (.claude, .cursor/rules, .cursor, .codex, .gemini, .github, .husky). Other directories are
// never removed.
func pruneEmptyDirs(dir string) {
	for {
		base := filepath.Base(dir)
		parent := filepath.Base(filepath.Dir(dir))
		ok := base == ".claude" || base == ".cursor" || base == ".codex" || base == ".gemini" || base == ".github" || base == ".husky" ||
			(base == "rules" && parent == ".cursor")
		if !ok || os.Remove(dir) != nil { // Remove fails on a non-empty dir
			return
		}
		dir = filepath.Dir(dir)
	}
}
