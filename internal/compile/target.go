package compile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// Target is one context file an agent reads at session start.
type Target struct {
	Name  string // the --target value
	Path  string // slash-separated, relative to the repository root; "" for raw
	Label string // the tool that reads it, for messages
}

// targets lists every target (docs/design.md#enforcement-surfaces; docs/hook-protocol.md#context-files for the files).
var targets = []Target{
	{Name: "claude", Path: "CLAUDE.md", Label: "Claude Code"},
	{Name: "agents", Path: "AGENTS.md", Label: "Codex, Zed, Amp and other AGENTS.md readers"},
	{Name: "gemini", Path: "GEMINI.md", Label: "Gemini CLI"},
	{Name: "cursor", Path: ".cursor/rules/gitwarrant.mdc", Label: "Cursor"},
	{Name: "copilot", Path: ".github/copilot-instructions.md", Label: "GitHub Copilot"},
	{Name: "raw", Path: "", Label: "stdout"},
}

// Targets returns every target, file targets first and raw last.
func Targets() []Target { return append([]Target(nil), targets...) }

// TargetNames returns the --target values, for help and error messages.
func TargetNames() []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		out[i] = t.Name
	}
	return out
}

// TargetByName returns the target called name.
func TargetByName(name string) (Target, bool) {
	for _, t := range targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// IsFile reports whether the target is written to a file (all but raw).
func (t Target) IsFile() bool { return t.Path != "" }

// cursorFrontmatter is written once, when the .mdc file is new. Cursor
// needs alwaysApply as a real boolean: the string "true" silently fails
// (docs/hook-protocol.md#context-files), so it is written unquoted. The description has no
// ": " so it stays a plain YAML scalar.
const cursorFrontmatter = "---\ndescription: gitwarrant — the agent's warrant for this repository, generated from .gitwarrant/loops\nalwaysApply: true\n---\n"

// Tokens estimates the tokens s costs in an agent's context: ceil(bytes/4)
// (docs/design.md#enforcement-surfaces).
func Tokens(s string) int { return (len(s) + 3) / 4 }

// WriteTarget writes block into t's file under root (see PlanTarget), only
// when the bytes change, atomically — a temporary file in the same
// directory, synced, then renamed over the original, keeping its mode — so
// a crash never leaves a half-written file. Parent directories are
// created. On a marker error nothing is written.
func WriteTarget(root string, t Target, block string) (bool, error) {
	fp, err := PlanTarget(root, t, block)
	if err != nil || !fp.Changed {
		return false, err
	}
	return true, fsx.WriteAtomic(fp.Path, fp.New, fp.Mode)
}

// RemoveTarget takes the gitwarrant block out of t's file (see
// PlanRemoveTarget), deleting a file gitwarrant created.
func RemoveTarget(root string, t Target) (bool, error) {
	fp, err := PlanRemoveTarget(root, t)
	if err != nil || !fp.Changed {
		return false, err
	}
	if fp.Remove {
		return true, os.Remove(fp.Path)
	}
	return true, fsx.WriteAtomic(fp.Path, fp.New, fp.Mode)
}

// resolve follows a symlinked target file to the file it names; a missing
// file resolves to itself.
func resolve(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	switch {
	case err == nil:
		return real, nil
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	}
	return "", fmt.Errorf("%s: %w — check the file and its permissions", path, err)
}

// readTarget reads path, reporting whether it exists and its mode (0644
// for a new file).
func readTarget(path string) ([]byte, fs.FileMode, bool, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, fmt.Errorf("%s is not a regular file — move it aside, then compile again", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, false, fmt.Errorf("%s: %w — check its permissions", path, err)
	}
	return data, fi.Mode().Perm(), true, nil
}

// DisplayPath is t's path in the OS's form, for messages.
func (t Target) DisplayPath() string {
	return strings.ReplaceAll(t.Path, "/", string(filepath.Separator))
}
