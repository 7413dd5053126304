package gitx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// Objects read through `git cat-file --batch` are the objects read in
// process, packed or loose; a blob list answers each id once, leaves out
// ids Git lacks, and calls back on each blob; a batch whose process died
// falls back to reading in process.
func TestBatchReadsAsInProcess(t *testing.T) {
	r := newRepo(t)
	for i := 0; i < 5; i++ {
		if err := os.WriteFile(filepath.Join(r.WorkTree, "a.txt"), []byte(strings.Repeat(fmt.Sprintf("line %d\n", i), 50+i)), 0o644); err != nil {
			t.Fatal(err)
		}
		run(t, r.WorkTree, "add", "a.txt")
		run(t, r.WorkTree, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", fmt.Sprint(i))
	}
	run(t, r.WorkTree, "gc", "-q", "--prune=now")
	if err := os.WriteFile(filepath.Join(r.WorkTree, "loose.txt"), []byte("loose\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	looseID := run(t, r.WorkTree, "hash-object", "-w", "loose.txt")
	ids := strings.Fields(run(t, r.WorkTree, "rev-list", "--objects", "--no-object-names", "HEAD"))
	ids = append(ids, looseID)
	want := map[string][]byte{}
	var blobs []string
	plain, _ := Discover(r.WorkTree)
	for _, id := range ids {
		typ, data, err := plain.readObject(plumbing.NewHash(id))
		if err != nil {
			t.Fatal(err)
		}
		want[id] = data
		if typ == typeBlob {
			blobs = append(blobs, id)
		}
	}

	b, _ := Discover(r.WorkTree)
	if !b.StartBatch() || b.batch == nil {
		t.Fatal("no batch process started")
	}
	if b.StartBatch() {
		t.Fatal("a second batch started over the first")
	}
	for _, id := range ids {
		typ, data, err := b.readObject(plumbing.NewHash(id))
		if err != nil || !bytes.Equal(data, want[id]) {
			t.Fatalf("%s (%s): %v, or other content through the batch", id, typ, err)
		}
	}
	missing := strings.Repeat("0", 39) + "1"
	if _, _, err := b.readObject(plumbing.NewHash(missing)); err == nil {
		t.Fatal("a missing object read without an error")
	}
	called := map[string]int{}
	got, err := b.ReadBlobsEach(append(append([]string{missing}, blobs...), blobs[0]), func(id string, data []byte) { called[id]++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(blobs) || len(called) != len(blobs) {
		t.Fatalf("%d blobs back, %d called, want %d", len(got), len(called), len(blobs))
	}
	for _, id := range blobs {
		if !bytes.Equal(got[id], want[id]) || called[id] != 1 {
			t.Fatalf("blob %s: other content, or called %d times", id, called[id])
		}
	}
	// the process dies: reads go on in process
	b.batch.cmd.Process.Kill()
	b.batch.cmd.Wait()
	for _, id := range ids {
		if _, data, err := b.readObject(plumbing.NewHash(id)); err != nil || !bytes.Equal(data, want[id]) {
			t.Fatalf("%s after the batch died: %v", id, err)
		}
	}
	b.StopBatch()
	if b.batch != nil {
		t.Fatal("StopBatch left the batch")
	}
}
