package loops

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
)

// LoadFile reads and parses one loop file and folds in the loops it
// extends, read from the same folder (docs/loop-format.md#extends-and-abstract).
// It refuses a symlink (a reviewed path must not point at unreviewed
// bytes), anything but a regular file, and a file over MaxFileSize before
// reading it.
func LoadFile(path string) (*Loop, error) { return (*Cache)(nil).LoadFile(path) }

// ParseFile is LoadFile without folding in `extends`: the file as written,
// with Extends still naming its parent (for lint, which checks the two
// apart).
func ParseFile(path string) (*Loop, error) { return loadFile(path) }

// loadFile is LoadFile without `extends`.
func loadFile(path string) (*Loop, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// ReadFile reads a loop file's bytes as loading reads them (readFile).
func ReadFile(path string) ([]byte, error) { return readFile(path) }

// readFile reads a loop file's bytes under the file-level rules: no
// symlink, a regular file, at most MaxFileSize, and the opened file the
// very one that was checked.
func readFile(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	return readChecked(path, info)
}

// readChecked is readFile once path's Lstat result is known.
func readChecked(path string, info fs.FileInfo) ([]byte, error) {
	if err := checkInfo(path, info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|fsx.OpenNoWait, 0)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	// The file could be swapped for a link or a FIFO between Lstat and
	// Open; the open handle must be the very file that was checked.
	opened, err := f.Stat()
	if err != nil {
		return nil, fileError(path, err)
	}
	if !os.SameFile(info, opened) {
		return nil, &Error{File: path, Msg: "file changed while it was being opened", Hint: "run the command again"}
	}
	data, err := readAll(io.LimitReader(f, MaxFileSize+1), opened.Size())
	if err != nil {
		return nil, fileError(path, err)
	}
	return data, nil
}

// readAll is io.ReadAll with the buffer sized to the file as checked
// (plus a byte, so the read that meets the end needs no room): a server
// reads every loop file on every call, and io.ReadAll's growth from 512
// bytes allocated over twice each file (BenchmarkDecide/unpinned-cached:
// about 635 → 583 kB/op, 3,700 → 3,620 allocs/op). A file that grew or
// shrank since is still read to its end, within r's limit.
func readAll(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, min(max(size, 0), MaxFileSize)+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// checkInfo applies the file-level rules to an Lstat result.
func checkInfo(path string, info fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return &Error{File: path, Msg: "loop file is a symbolic link",
			Hint: "replace the link with the file itself; loops are read only from regular files"}
	case !info.Mode().IsRegular():
		return &Error{File: path, Msg: fmt.Sprintf("loop file is not a regular file (%s)", info.Mode().Type()),
			Hint: "a loop is a plain Markdown file named <name>.loop.md"}
	case info.Size() > MaxFileSize:
		return &Error{File: path, Msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit for loop files", info.Size(), MaxFileSize),
			Hint: "move long reference material out of the loop and link to it, or split the task into several loops"}
	}
	return nil
}

func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return &Error{File: path, Msg: "file does not exist", Hint: "check the path, or run `gitwarrant list` to see the loops"}
	}
	return &Error{File: path, Msg: "cannot read loop file: " + err.Error(), Hint: "check the file's permissions"}
}

// LoopFiles lists the loop files of dir (`*.loop.md`, but not an editor's
// `.#` lock link), in name order.
func LoopFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fileError(dir, err)
	}
	var paths []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), FileSuffix) && !strings.HasPrefix(e.Name(), ".#") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// LoadDir parses every `*.loop.md` in dir, in name order. It returns the
// loops that parsed and one error per file that did not, so one bad file
// does not hide the others.
func LoadDir(dir string) ([]*Loop, []error) { return (*Cache)(nil).LoadDir(dir) }

// LoadDir is the package-level LoadDir, through the cache.
func (c *Cache) LoadDir(dir string) ([]*Loop, []error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, []error{fileError(dir, err)}
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		// Emacs keeps a lock link `.#name` beside a file being edited; it
		// is not a loop, and reporting it would make every unpinned hook
		// call ask while someone edits a loop.
		if strings.HasSuffix(e.Name(), FileSuffix) && !strings.HasPrefix(e.Name(), ".#") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	// Routing loads every loop on every hook call, so the files are parsed
	// in parallel; results keep file order, so nothing depends on timing.
	got := make([]*Loop, len(names))
	gotErr := make([]error, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(names); i = int(next.Add(1) - 1) {
				got[i], gotErr[i] = c.LoadFile(filepath.Join(dir, names[i]))
			}
		})
	}
	wg.Wait()
	var loops []*Loop
	var errs []error
	for i := range names {
		if gotErr[i] != nil {
			errs = append(errs, gotErr[i])
			continue
		}
		loops = append(loops, got[i])
	}
	return loops, errs
}

// LoadByName loads `<dir>/<name>.loop.md`. The name is validated first, so
// a name such as `../x` can never reach outside dir.
func LoadByName(dir, name string) (*Loop, error) { return (*Cache)(nil).LoadByName(dir, name) }

// LoadByName is the package-level LoadByName, through the cache.
func (c *Cache) LoadByName(dir, name string) (*Loop, error) {
	if !ValidName(name) {
		return nil, &Error{File: dir, Msg: fmt.Sprintf("%q is not a loop name", name),
			Hint: "loop names use lowercase letters, digits and dashes (e.g. insurance-appeal); run `gitwarrant list` to see them"}
	}
	path := filepath.Join(dir, name+FileSuffix)
	began := time.Now()
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &Error{File: dir, Msg: "no loop named " + name,
			Hint: fmt.Sprintf("run `gitwarrant list` to see the loops, or `gitwarrant new %s` to write one", name)}
	case err != nil:
		return nil, fileError(path, err)
	}
	if err := exactName(path, info); err != nil {
		return nil, err
	}
	data, err := c.read(path, info, began)
	if err != nil {
		return nil, err
	}
	l, err := c.parseVouched(path, data)
	if err != nil {
		return nil, err
	}
	return c.resolveExtends(l, filepath.Dir(path), nil)
}

// exactName refuses a loop file that the file system found under another
// spelling. On a case-insensitive file system (macOS, Windows) opening
// x.loop.md opens x.LOOP.md, a file that the loops listing, the warrant
// diff and the CI gate do not take for a loop: its entries would be obeyed
// unreviewed (docs/loop-format.md#file-names). Where the folder tells case
// apart — the upper-case name is not the same file — nothing more is read;
// elsewhere the folder's listing must hold the exact name.
func exactName(path string, info fs.FileInfo) error {
	dir, base := filepath.Split(path)
	if alt, err := os.Lstat(filepath.Join(dir, strings.ToUpper(base))); err != nil || !os.SameFile(info, alt) {
		return nil
	}
	ents, err := os.ReadDir(filepath.Clean(dir))
	if err != nil {
		return fileError(path, err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return exactIn(path, base, names)
}

// exactIn is exactName's verdict on a folder listing.
func exactIn(path, base string, names []string) error {
	var other string
	for _, n := range names {
		if n == base {
			return nil
		}
		if strings.EqualFold(n, base) {
			other = n
		}
	}
	if other == "" {
		return &Error{File: path, Msg: "the loop file is not listed under its own name in its folder",
			Hint: "rename the file to " + base + ", in lower case"}
	}
	return &Error{File: path, Msg: fmt.Sprintf("the loop file is named %s on disk, not %s: this file system ignores case, but only %s is a loop to the warrant diff and the CI gate", other, base, base),
		Hint: fmt.Sprintf("rename it in Git: git mv %s %s", other, base)}
}
