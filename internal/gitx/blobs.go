package gitx

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ReadBlobs reads blobs by id with one `git cat-file --batch` process
// (ids may repeat; each is read once). Ids Git does not have are absent
// from the result: a loop file checked but never committed leaves none.
func (r *Repo) ReadBlobs(ids []string) (map[string][]byte, error) {
	return r.ReadBlobsEach(ids, nil)
}

// ReadBlobsEach is ReadBlobs that also calls fn on each blob as it
// arrives from git (when StartBatch is on; after all are read otherwise),
// so that work on the first can start while git reads the rest.
func (r *Repo) ReadBlobsEach(ids []string, fn func(id string, data []byte)) (map[string][]byte, error) {
	if b := r.batch; b != nil && !slices.ContainsFunc(ids, func(id string) bool { return !plumbing.IsHash(id) }) {
		seen := map[string]bool{}
		uniq := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { d := seen[id]; seen[id] = true; return d })
		if out, ok := b.blobs(uniq, fn); ok {
			return out, nil
		}
	}
	out, err := r.readBlobs(ids)
	if err == nil && fn != nil {
		for id, b := range out {
			fn(id, b)
		}
	}
	return out, err
}

func (r *Repo) readBlobs(ids []string) (map[string][]byte, error) {
	var in bytes.Buffer
	seen := map[string]bool{}
	var order []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			order = append(order, id)
			fmt.Fprintln(&in, id)
		}
	}
	out := map[string][]byte{}
	if len(order) == 0 {
		return out, nil
	}
	raw, err := r.GitInput(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(raw))
	for range order {
		hdr, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file --batch: short output: %w", err)
		}
		f := strings.Fields(hdr)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file --batch: unexpected header %q", hdr)
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file --batch: bad size in %q", hdr)
		}
		data := make([]byte, n+1) // content and its trailing newline
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, err
		}
		if f[1] == "blob" {
			out[f[0]] = data[:n]
		}
	}
	return out, nil
}
