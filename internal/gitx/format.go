package gitx

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrUnsupported is returned (wrapped) by Discover for a repository whose
// format gitwarrant cannot write without corrupting it
// (docs/design.md#repositories-gitwarrant-refuses).
var ErrUnsupported = errors.New("repository format not supported")

// FormatError names the setting that makes a repository unsupported.
type FormatError struct {
	Config string // the config file that says so
	Key    string // "extensions.objectFormat", "extensions.refStorage"
	Value  string
}

func (e *FormatError) Error() string {
	if e.Key == "extensions.objectFormat" {
		return fmt.Sprintf("this repository names its objects with %s (%s = %s in %s), and gitwarrant works only in SHA-1 repositories: it writes SHA-1 objects, and go-git, which reads the record in CI, cannot read %s ones — nothing was written; use gitwarrant in a repository made by a plain `git init`",
			e.Value, e.Key, e.Value, e.Config, e.Value)
	}
	return fmt.Sprintf("this repository keeps its refs in %s (%s = %s in %s), and gitwarrant moves refs/gitwarrant/* as loose ref files, which such a repository does not read — nothing was written; use gitwarrant in a repository made by a plain `git init`",
		e.Value, e.Key, e.Value, e.Config)
}

// Is makes errors.Is(err, ErrUnsupported) hold.
func (e *FormatError) Is(target error) bool { return target == ErrUnsupported }

// checkFormat refuses a repository gitwarrant would damage: one whose
// objects are not SHA-1 (`git init --object-format=sha256`), or whose refs
// are not files. It reads the common dir's config (extensions live there);
// an unreadable config is left to Git to complain about.
func checkFormat(commonDir string) error {
	path := filepath.Join(commonDir, "config")
	vs := ConfigValues(path, "extensions", "objectFormat", "refStorage")
	if v := vs[0]; v != "" && !strings.EqualFold(v, "sha1") {
		return &FormatError{Config: path, Key: "extensions.objectFormat", Value: v}
	}
	if v := vs[1]; v != "" && !strings.EqualFold(v, "files") {
		return &FormatError{Config: path, Key: "extensions.refStorage", Value: v}
	}
	return nil
}

// CheckFormat is Discover's format check for a repository Locate found:
// nil when gitwarrant may write into it.
func (r *Repo) CheckFormat() error { return checkFormat(r.CommonDir) }
