package compile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// TargetPlan is what WriteTarget or RemoveTarget would do to one file,
// computed without writing, so install can plan every file first and write
// only when all of them are sound (docs/design.md#enforcement-surfaces: nothing written on any error).
type TargetPlan struct {
	Path    string      // the file to write: absolute, symlinks followed
	Old     []byte      // its bytes now; nil when absent
	Exists  bool        // whether it exists now
	Mode    fs.FileMode // its permission bits (0644 for a new file)
	New     []byte      // its bytes afterwards, when Changed and not Remove
	Changed bool        // whether the file would change at all
	Remove  bool        // uncompiling leaves only what gitwarrant created: delete it
}

// PlanTarget computes what WriteTarget would write: the file read if
// present, the block applied (see Apply), a new Cursor file starting with
// valid frontmatter. A symlinked target (CLAUDE.md → AGENTS.md is common)
// resolves to the file it names, so the link is kept. A marker error names
// the file and line.
func PlanTarget(root string, t Target, block string) (TargetPlan, error) {
	p, err := readPlan(root, t)
	if err != nil {
		return p, err
	}
	base := p.Old
	if !p.Exists && t.Name == "cursor" {
		base = []byte(cursorFrontmatter)
	}
	out, err := apply(base, block, !p.Exists)
	if err != nil {
		return p, withFile(err, t)
	}
	p.New = out
	p.Changed = !p.Exists || !bytes.Equal(out, p.Old)
	return p, nil
}

// PlanRemoveTarget computes what RemoveTarget would do, for uninstall: the
// block taken out (see Remove), and the file marked for deletion when its
// block says gitwarrant created it and nothing is left but what gitwarrant
// wrote (nothing or, for Cursor, only the frontmatter PlanTarget wrote). A
// file that existed before, even an empty one, stays.
func PlanRemoveTarget(root string, t Target) (TargetPlan, error) {
	p, err := readPlan(root, t)
	if err != nil || !p.Exists {
		return p, err
	}
	out, removed, err := Remove(p.Old)
	if err != nil {
		return p, withFile(err, t)
	}
	if !removed {
		return p, nil
	}
	p.Changed = true
	p.New = out
	p.Remove = Created(p.Old) && (len(out) == 0 || (t.Name == "cursor" && string(out) == cursorFrontmatter))
	return p, nil
}

// readPlan resolves t's file and reads its current state.
func readPlan(root string, t Target) (TargetPlan, error) {
	if !t.IsFile() {
		return TargetPlan{}, fmt.Errorf("compile: target %q prints to stdout and has no file to write", t.Name)
	}
	path, err := resolve(filepath.Join(root, filepath.FromSlash(t.Path)))
	if err != nil {
		return TargetPlan{}, err
	}
	old, mode, exists, err := readTarget(path)
	return TargetPlan{Path: path, Old: old, Exists: exists, Mode: mode}, err
}

// withFile puts the target's path into a marker error.
func withFile(err error, t Target) error {
	var me *MarkerError
	if errors.As(err, &me) {
		me.File = t.Path
	}
	return err
}
