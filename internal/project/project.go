// Package project finds a gitwarrant project: the `.gitwarrant/` directory
// (or a docket `.docket/` one) that holds loops and the record (docs/design.md#repository-layout).
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Directory names. `.gitwarrant` wins when both exist (docs/design.md#repository-layout).
const (
	DirName       = ".gitwarrant"
	LegacyDirName = ".docket"
)

// Project is a located project directory.
type Project struct {
	// Dir is the project directory itself (…/.gitwarrant or …/.docket).
	Dir string
	// Root is the directory that contains Dir (usually the work tree root).
	Root string
	// Legacy reports a docket `.docket/` project.
	Legacy bool
}

// LoopsDir is where loop files live.
func (p *Project) LoopsDir() string { return filepath.Join(p.Dir, "loops") }

// RecordDir is where the per-writer chains live.
func (p *Project) RecordDir() string { return filepath.Join(p.Dir, "record") }

// LegacyRecord is docket's single chain file, read as one more chain.
func (p *Project) LegacyRecord() string { return filepath.Join(p.Dir, "record.jsonl") }

// AllowedSigners is the OpenSSH allowed_signers file of humans who may sign amends.
func (p *Project) AllowedSigners() string { return filepath.Join(p.Dir, "allowed_signers") }

// ErrNotFound is returned (wrapped) when no project can be found.
var ErrNotFound = errors.New("no gitwarrant project found")

// Options says where to look. Explicit beats environment beats walking up.
type Options struct {
	Dir string              // --dir flag
	Env func(string) string // environment lookup; nil means none
	Cwd string              // working directory to walk up from
}

// Find locates the project: --dir, else GITWARRANT_DIR, else DOCKET_DIR,
// else walk up from Cwd. --dir and the variables may name either the
// project directory itself or the directory that contains it.
func Find(o Options) (*Project, error) {
	getenv := o.Env
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	for _, c := range []struct{ val, src string }{
		{o.Dir, "--dir"},
		{getenv("GITWARRANT_DIR"), "GITWARRANT_DIR"},
		{getenv("DOCKET_DIR"), "DOCKET_DIR"},
	} {
		if c.val == "" {
			continue
		}
		p, err := at(c.val)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w — run `gitwarrant init` there, or point %s at a directory holding %s/", c.src, c.val, err, c.src, DirName)
		}
		return p, nil
	}
	dir, err := filepath.Abs(o.Cwd)
	if err != nil {
		return nil, err
	}
	for {
		if p, err := at(dir); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("%w in %s or any parent — run `gitwarrant init` to create %s/, or pass --dir", ErrNotFound, o.Cwd, DirName)
		}
		dir = parent
	}
}

// at accepts a project directory itself or its parent.
func at(path string) (*Project, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(abs)
	if base == DirName || base == LegacyDirName {
		if isDir(abs) {
			return &Project{Dir: abs, Root: filepath.Dir(abs), Legacy: base == LegacyDirName}, nil
		}
	}
	if d := filepath.Join(abs, DirName); isDir(d) {
		return &Project{Dir: d, Root: abs}, nil
	}
	if d := filepath.Join(abs, LegacyDirName); isDir(d) {
		return &Project{Dir: d, Root: abs, Legacy: true}, nil
	}
	return nil, ErrNotFound
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
