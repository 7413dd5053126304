// Package lint reviews loop files before they bind anyone
// (docs/loop-format.md#lint): every error a loop file has, with file:line,
// and the warnings — what a file gets away with, and entries that cannot
// do what their author meant. It is a leaf package: it reads files, never
// runs processes or touches the terminal.
//
// The checks are a registry (Checks, Register): each is a named function
// over the loaded folder, so new rules (typed warrant entries, examples)
// are appended without touching the others.
package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Severity says whether a finding fails lint (error), only --strict lint
// (warning), or neither (note: what an entry will and will not allow).
type Severity string

// The three severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Note    Severity = "note"
)

// Finding is one thing lint reports: where, how bad, which check, what is
// wrong and what to do.
type Finding struct {
	File     string
	Line     int // 1-based; 0 when the whole file is at fault
	Severity Severity
	Check    string
	Msg      string
	Hint     string
}

// File is one loop file as lint sees it: the file as written (Raw, nil when
// it does not parse) and with its `extends` chain folded in (Loop, nil when
// that fails).
type File struct {
	Path string
	Raw  *loops.Loop
	Loop *loops.Loop
	// ParseErr is why Raw is nil; LoadErr why Loop is nil though Raw is not.
	ParseErr, LoadErr error
}

// Check is one lint rule over a set of loop files.
type Check struct {
	Name string // short id, shown with each finding
	Doc  string // one line: what it catches
	Run  func(files []*File, o Options) []Finding
}

// Options is what a caller hands every check. The parts of a decision come
// in here, never through a variable another package sets, so one process
// running lint twice (doctor, then ci) decides the same way both times.
type Options struct {
	// Examples decides each `examples:` call; the CLI passes the hook's
	// own gate. Nil decides with the loop's typed entries alone.
	Examples ExampleVerdict
	// Home is the user's home directory, for `~` in typed entries when
	// Examples is nil.
	Home string
}

var registry []Check

// Register appends a check; checks run in registration order.
func Register(c Check) { registry = append(registry, c) }

// Checks returns the registered checks in order.
func Checks() []Check { return append([]Check(nil), registry...) }

// Load reads the loop files named by paths — each a loop file or a folder
// of them — parsing each as written and then with `extends` folded in.
func Load(paths []string) ([]*File, error) {
	var files []*File
	for _, p := range paths {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such loop file or folder", p)
		}
		if err != nil {
			return nil, err
		}
		names := []string{p}
		if info.IsDir() {
			if names, err = loops.LoopFiles(p); err != nil {
				return nil, err
			}
		}
		for _, n := range names {
			f := &File{Path: n}
			if f.Raw, f.ParseErr = loops.ParseFile(n); f.ParseErr == nil {
				f.Loop, f.LoadErr = loops.LoadFile(n)
			}
			files = append(files, f)
		}
	}
	return files, nil
}

// Run runs every registered check over files with o and returns the
// findings in file, line and check order.
func Run(files []*File, o Options) []Finding {
	var out []Finding
	for _, c := range registry {
		for _, f := range c.Run(files, o) {
			f.Check = c.Name
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// Count returns how many findings are errors and how many warnings (notes
// are neither).
func Count(fs []Finding) (errs, warns int) {
	for _, f := range fs {
		switch f.Severity {
		case Error:
			errs++
		case Warning:
			warns++
		}
	}
	return errs, warns
}

// fromError turns a load error into a finding at its file:line.
func fromError(path string, err error) Finding {
	var le *loops.Error
	if errors.As(err, &le) {
		return Finding{File: le.File, Line: le.Line, Severity: Error, Msg: le.Msg, Hint: le.Hint}
	}
	return Finding{File: path, Severity: Error, Msg: err.Error()}
}
