package gitx

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// packedRepo makes a repository whose objects all lie in one pack, most
// of them deltas: forty versions of two similar files of one size, each
// version one line off the last, repacked with deep chains. gitArgs go before `repack`.
func packedRepo(t *testing.T, gitArgs ...string) *Repo {
	t.Helper()
	r := newRepo(t)
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = fmt.Sprintf("line %03d of a file one line of which changes per commit\n", i)
	}
	for i := range 40 {
		lines[(i*37)%len(lines)] = fmt.Sprintf("line %03d changed in commit %03d of this test file\n", (i*37)%len(lines), i)
		for _, name := range []string{"a.txt", "b.txt"} {
			if err := os.WriteFile(filepath.Join(r.WorkTree, name), []byte(name+"\n"+strings.Join(lines, "")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run(t, r.WorkTree, "add", "-A")
		run(t, r.WorkTree, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v"+strconv.Itoa(i))
	}
	run(t, r.WorkTree, append(gitArgs, "repack", "-q", "-a", "-d", "-f", "--depth=50", "--window=50")...)
	run(t, r.WorkTree, "prune-packed")
	if m, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "??", "*")); len(m) != 0 {
		t.Fatalf("loose objects left: %v", m)
	}
	fresh, err := Discover(r.WorkTree)
	if err != nil {
		t.Fatal(err)
	}
	return fresh
}

// allObjects lists every object git has, with its type and content.
func allObjects(t *testing.T, dir string) map[plumbing.Hash][2]string {
	t.Helper()
	cmd := exec.Command("git", "cat-file", "--batch-all-objects", "--batch")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	objs := map[plumbing.Hash][2]string{}
	br := bufio.NewReader(bytes.NewReader(out))
	for {
		hdr, err := br.ReadString('\n')
		if err != nil {
			break
		}
		f := strings.Fields(hdr)
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1)
		if _, err := io.ReadFull(br, data); err != nil {
			t.Fatal(err)
		}
		objs[plumbing.NewHash(f[0])] = [2]string{f[1], string(data[:n])}
	}
	return objs
}

// maxChain is the longest delta chain `git verify-pack` reports.
func maxChain(t *testing.T, r *Repo) int {
	t.Helper()
	idx, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "*.idx"))
	out := run(t, r.WorkTree, "verify-pack", "-v", idx[0])
	most := 0
	for _, l := range strings.Split(out, "\n") {
		if n, ok := strings.CutPrefix(l, "chain length = "); ok {
			k, _ := strconv.Atoi(strings.SplitN(n, ":", 2)[0])
			most = max(most, k)
		}
	}
	return most
}

// Every object of a packed repository reads back as Git reads it, through
// offset deltas and (with repack.useDeltaBaseOffset off) reference
// deltas, from any number of goroutines at once.
func TestPackedObjectsMatchGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"offset deltas", nil},
		{"reference deltas", []string{"-c", "repack.useDeltaBaseOffset=false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := packedRepo(t, tc.args...)
			if d := maxChain(t, r); d < 5 {
				t.Fatalf("the pack's longest delta chain is %d: the test reads no deep chain", d)
			}
			want := allObjects(t, r.WorkTree)
			var wg sync.WaitGroup
			errs := make(chan error, 4*len(want))
			for w := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					i := 0
					for h, o := range want {
						i++
						if i%4 != w && w != 0 { // worker 0 reads all, the others a share
							continue
						}
						typ, data, err := r.readPacked(h)
						if err != nil {
							errs <- fmt.Errorf("%s: %v", h, err)
							continue
						}
						if typ != o[0] || string(data) != o[1] {
							errs <- fmt.Errorf("%s: read a %s of %d bytes, git has a %s of %d", h, typ, len(data), o[0], len(o[1]))
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
		})
	}
}

// An index entry whose offset lies in the large-offset table (packs over
// 2 GiB) is followed there: the index is rewritten so that every entry
// goes through that table.
func TestPackIndexLargeOffsets(t *testing.T) {
	r := packedRepo(t)
	idxs, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "*.idx"))
	b, err := os.ReadFile(idxs[0])
	if err != nil {
		t.Fatal(err)
	}
	x, err := parsePackIndex(b)
	if err != nil {
		t.Fatal(err)
	}
	head := 8 + 1024 + x.n*24
	var out bytes.Buffer
	out.Write(b[:head])
	var large []byte
	for i := range x.n {
		out.Write(binary.BigEndian.AppendUint32(nil, 0x80000000|uint32(i)))
		large = binary.BigEndian.AppendUint64(large, uint64(binary.BigEndian.Uint32(x.off32[i*4:])))
	}
	out.Write(large)
	out.Write(b[len(b)-40:])
	if err := os.Chmod(idxs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idxs[0], out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ = Discover(r.WorkTree)
	for h, o := range allObjects(t, r.WorkTree) {
		typ, data, err := r.readPacked(h)
		if err != nil || typ != o[0] || string(data) != o[1] {
			t.Fatalf("%s through a large offset: %s, %d bytes, %v", h, typ, len(data), err)
		}
	}
}

// A damaged pack is an error that names the object and the pack and says
// to run git fsck — never other bytes taken for the object.
func TestPackedCorruptionIsAnError(t *testing.T) {
	r := packedRepo(t)
	objs := allObjects(t, r.WorkTree)
	packs, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "*.pack"))
	b, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	// damage the middle of the pack: some objects, or the bases of their
	// deltas, no longer inflate or no longer match their ids
	for i := len(b) / 2; i < len(b)/2+64; i++ {
		b[i] ^= 0x55
	}
	if err := os.Chmod(packs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ = Discover(r.WorkTree)
	bad := 0
	for h, o := range objs {
		typ, data, err := r.readPacked(h)
		if err != nil {
			bad++
			if !strings.Contains(err.Error(), h.String()[:12]) || !strings.Contains(err.Error(), "git fsck") {
				t.Errorf("error for %s does not say which object or what to do: %v", h, err)
			}
			continue
		}
		if typ != o[0] || string(data) != o[1] {
			t.Fatalf("%s: read other bytes than the object without an error", h)
		}
	}
	if bad == 0 {
		t.Fatal("no read failed: the damage reached no object")
	}
}

// Deltas that reach outside their base, stop short or claim sizes they do
// not hold are refused.
func TestApplyDeltaRefusesBadDeltas(t *testing.T) {
	base := []byte("0123456789")
	ok := []byte{10, 6, 0x91, 2, 4, 2, 'x', 'y'} // copy 4 from offset 2, insert "xy"
	if got, err := applyDelta(base, ok); err != nil || string(got) != "2345xy" {
		t.Fatalf("applyDelta = %q, %v", got, err)
	}
	for name, d := range map[string][]byte{
		"wrong base size":     {9, 6, 0x91, 2, 4, 2, 'x', 'y'},
		"copy past the base":  {10, 6, 0x91, 8, 4, 2, 'x', 'y'},
		"insert cut short":    {10, 6, 0x91, 2, 4, 3, 'x', 'y'},
		"reserved op":         {10, 6, 0x91, 2, 4, 0, 'x', 'y'},
		"result shorter":      {10, 7, 0x91, 2, 4, 2, 'x', 'y'},
		"result longer":       {10, 5, 0x91, 2, 4, 2, 'x', 'y'},
		"copy header cut":     {10, 6, 0x91, 2},
		"size with no end":    {0x80, 0x80},
		"huge result claimed": {10, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x91, 2, 4},
	} {
		if got, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: applied, got %q", name, got)
		}
	}
}

// No delta or pack index, however damaged, makes the reader panic.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789"), []byte{10, 6, 0x91, 2, 4, 2, 'x', 'y'})
	f.Add([]byte(""), []byte{0, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		applyDelta(base, delta)
	})
}

func FuzzParsePackIndex(f *testing.F) {
	idx := make([]byte, 8+1024+28+40)
	copy(idx, idxMagic)
	idx[7] = 2
	binary.BigEndian.PutUint32(idx[8+255*4:], 1)
	f.Add(idx, []byte{0xff})
	f.Fuzz(func(t *testing.T, b []byte, id []byte) {
		x, err := parsePackIndex(b)
		if err != nil {
			return
		}
		var h plumbing.Hash
		copy(h[:], id)
		x.find(h)
	})
}

// No pack entry header or stream, however damaged, makes the reader panic
// or allocate past what the pack could inflate to.
func FuzzPackEntry(f *testing.F) {
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x35\x78\x9c\x4b\xcc\x02\x00\x01\x8e\x00\xc7\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), int64(12))
	f.Add([]byte("PACK\x00\x00\x00\x02\x00\x00\x00\x01\x65\x05\x78\x9c\x4b\xcc\x02\x00\x01\x8e\x00\xc7"+strings.Repeat("\x00", 20)), int64(12))
	f.Fuzz(func(t *testing.T, b []byte, off int64) {
		p := &pack{data: b}
		for range 4 { // follow a few offset deltas
			e, err := p.entryAt(off)
			if err != nil {
				return
			}
			p.inflate(e)
			if e.typ != packOfsDelta {
				return
			}
			off = e.base
		}
	})
}

// BlobAt takes a work-tree file for the blob only when the file is that
// blob byte for byte, and never follows a link or waits on a FIFO.
func TestBlobAtReadsOnlyTheBlob(t *testing.T) {
	r := newRepo(t) // a.txt holds "hello\n", committed
	id := run(t, r.WorkTree, "rev-parse", "HEAD:a.txt")
	loose := r.objectPath(plumbing.NewHash(id))
	got, err := r.BlobAt(id, "a.txt")
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("BlobAt = %q, %v", got, err)
	}
	// with the object gone, only the work-tree file can answer
	if err := os.Remove(loose); err != nil {
		t.Fatal(err)
	}
	if got, err := r.BlobAt(id, "a.txt"); err != nil || string(got) != "hello\n" {
		t.Fatalf("BlobAt from the work tree = %q, %v", got, err)
	}
	for name, setup := range map[string]func(p string) error{
		"edited": func(p string) error {
			os.Remove(p) // whatever an earlier case left there
			return os.WriteFile(p, []byte("hello!\n"), 0o644)
		},
		"a link to the same bytes": func(p string) error {
			other := filepath.Join(filepath.Dir(p), "same.txt")
			if err := os.WriteFile(other, []byte("hello\n"), 0o644); err != nil {
				return err
			}
			os.Remove(p)
			return os.Symlink(other, p)
		},
		"a FIFO": func(p string) error {
			os.Remove(p)
			return mkfifo(p)
		},
	} {
		if err := setup(filepath.Join(r.WorkTree, "a.txt")); err != nil {
			if errors.Is(err, errNoFIFO) {
				continue
			}
			t.Fatalf("%s: %v", name, err)
		}
		// the object is gone: anything but the blob's bytes must not be
		// taken for it
		if got, err := r.BlobAt(id, "a.txt"); err == nil {
			t.Errorf("%s: BlobAt read %q", name, got)
		}
	}
}

// A pack removed after its index was read (a concurrent `git gc` or a
// record pack merge) is not damage: the object is looked for elsewhere.
func TestPackRemovedSinceIndexRead(t *testing.T) {
	r := packedRepo(t)
	objs := allObjects(t, r.WorkTree)
	r.packs.once.Do(r.loadPacks) // the indexes are mapped, no pack yet
	packs, _ := filepath.Glob(filepath.Join(r.CommonDir, "objects", "pack", "*.pack"))
	saved := filepath.Join(t.TempDir(), "saved.pack")
	if err := os.Rename(packs[0], saved); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(saved)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("git", "unpack-objects", "-q")
	cmd.Dir, cmd.Stdin = r.WorkTree, f
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git unpack-objects: %v\n%s", err, out)
	}
	for h, o := range objs {
		if _, _, err := r.readPacked(h); !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Fatalf("%s from a removed pack: %v, want not found", h, err)
		}
		typ, data, err := r.readObject(h)
		if err != nil || typ != o[0] || string(data) != o[1] {
			t.Fatalf("%s after its pack went: %s, %d bytes, %v", h, typ, len(data), err)
		}
	}
}
