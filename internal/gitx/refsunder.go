package gitx

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// RefsUnder lists the refs whose names start with prefix (such as
// "refs/gitwarrant/"), loose and packed, sorted, in process: the hook
// lists the record's refs on every call that needs the signed entries
// (docs/signing.md#only-a-signed-warrant-is-in-force), and a `git
// for-each-ref` costs a process. A repository whose refs are kept in a
// reftable is answered by git.
func (r *Repo) RefsUnder(prefix string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(r.CommonDir, "reftable")); err == nil {
		out, err := r.Git("for-each-ref", "--format=%(refname)", prefix)
		if err != nil {
			return nil, err
		}
		refs := strings.Fields(string(out))
		sort.Strings(refs)
		return refs, nil
	}
	seen := map[string]bool{}
	root := filepath.Join(r.CommonDir, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasSuffix(path, ".lock") {
			return nil
		}
		rel, err := filepath.Rel(r.CommonDir, path)
		if err != nil {
			return err
		}
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(r.CommonDir, "packed-refs")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) > 41 && line[40] == ' ' && bytes.HasPrefix(line[41:], []byte(prefix)) {
				seen[string(line[41:])] = true
			}
		}
	}
	refs := make([]string, 0, len(seen))
	for name := range seen {
		refs = append(refs, name)
	}
	sort.Strings(refs)
	return refs, nil
}

// WriteBlob stores data as a blob in the object store and returns its id
// (hex), so a signed entry that names the blob can be read back later even
// when the file was never committed.
func (r *Repo) WriteBlob(data []byte) (string, error) {
	h, err := r.writeObject(typeBlob, data)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// HasBlob reports whether id names a blob this repository can read.
func (r *Repo) HasBlob(id string) bool {
	if !plumbing.IsHash(id) {
		return false
	}
	_, err := r.Blob(id)
	return err == nil
}
