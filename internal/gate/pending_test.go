package gate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// pendingPlace is a Place whose markers live under a scratch git dir.
func pendingPlace(t testing.TB) Place {
	dir := t.TempDir()
	return Place{Repo: &gitx.Repo{WorkTree: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git")}}
}

func mustFind(t *testing.T, place Place, id, want string) func() {
	t.Helper()
	loop, take, ok := findPending(place, id)
	if !ok || loop != want {
		t.Fatalf("marker %s: got %q, %v; want %q", id, loop, ok, want)
	}
	return take
}

func mustMiss(t *testing.T, place Place, id string) {
	t.Helper()
	if loop, _, ok := findPending(place, id); ok {
		t.Fatalf("marker %s: found %q, want none", id, loop)
	}
}

// TestPendingPairsOnce: each marker pairs with its call once; a marker
// used is not found again, the others still are, and an id outside
// Claude Code's characters is neither written nor matched.
func TestPendingPairsOnce(t *testing.T) {
	place := pendingPlace(t)
	rememberPending(place, "toolu_01", "fix")
	rememberPending(place, "toolu_02", "deploy")
	rememberPending(place, "toolu_03", "fix")
	rememberPending(place, "toolu_04/../x", "fix")
	rememberPending(place, "toolu_05", "Bad Loop")
	mustFind(t, place, "toolu_02", "deploy")() // used
	mustMiss(t, place, "toolu_02")
	mustFind(t, place, "toolu_01", "fix")
	mustFind(t, place, "toolu_03", "fix")
	mustMiss(t, place, "toolu_05")
	b, _ := os.ReadFile(pendingLog(place))
	if strings.Contains(string(b), "..") || strings.Contains(string(b), "Bad Loop") {
		t.Errorf("the log holds what no marker may name:\n%s", b)
	}
	// The same id checked again after its use is a new marker.
	rememberPending(place, "toolu_02", "fix")
	mustFind(t, place, "toolu_02", "fix")
}

// TestPendingSkipsGarbledLines: a torn last line, a line of the wrong
// shape and one that only contains the id never pair; the lines around
// them still do.
func TestPendingSkipsGarbledLines(t *testing.T) {
	place := pendingPlace(t)
	log := pendingLog(place)
	os.MkdirAll(filepath.Dir(log), 0o755)
	os.WriteFile(log, []byte("12\ttoolu_A\tfix\nnot a line\n\t\t\n99\ttoolu_Bx\tfix\tmore\n7\t-\n5\ttoolu_C\tfix\n8\ttoolu_B\tfi"), 0o644)
	mustFind(t, place, "toolu_A", "fix")
	mustFind(t, place, "toolu_C", "fix")
	mustMiss(t, place, "toolu_B")
	mustMiss(t, place, "toolu_Bx")
}

// TestPendingReadsOldMarkerFiles: a marker file an earlier version wrote
// (a server still running it) pairs, then goes, with the folder once it
// is empty.
func TestPendingReadsOldMarkerFiles(t *testing.T) {
	place := pendingPlace(t)
	dir := pendingDir(place)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "toolu_old"), []byte("fix\n"), 0o644)
	mustFind(t, place, "toolu_old", "fix")()
	mustMiss(t, place, "toolu_old")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the emptied folder of old markers is still there: %v", err)
	}
	// A refused ask's old file, over a week old, goes when any marker
	// of the log is used; a recent one stays, to pair.
	os.MkdirAll(dir, 0o755)
	stale, recent := filepath.Join(dir, "toolu_stale"), filepath.Join(dir, "toolu_recent")
	os.WriteFile(stale, []byte("fix\n"), 0o644)
	os.WriteFile(recent, []byte("fix\n"), 0o644)
	weekAgo := time.Now().Add(-pendingMaxAge - time.Hour)
	os.Chtimes(stale, weekAgo, weekAgo)
	rememberPending(place, "toolu_new", "fix")
	mustFind(t, place, "toolu_new", "fix")()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("an old marker file over a week old is still there: %v", err)
	}
	mustFind(t, place, "toolu_recent", "fix")
}

// TestPendingCompactsWithoutLoss: writers append markers while the log is
// compacted over and over (the threshold lowered to a few lines), from
// goroutines and from another process; every marker not used is found
// afterwards, and no used one comes back.
func TestPendingCompactsWithoutLoss(t *testing.T) {
	old := pendingCompactAt
	pendingCompactAt = 64
	defer func() { pendingCompactAt = old }()
	place := pendingPlace(t)
	const writers, each = 4, 150
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				rememberPending(place, fmt.Sprintf("toolu_g%d_%d", w, i), "fix")
			}
		})
	}
	// Another process appends too, through the same function.
	cmd := exec.Command(os.Args[0], "-test.run=^TestPendingHelperProcess$")
	cmd.Env = append(os.Environ(), "GITWARRANT_PENDING_HELPER="+place.Repo.CommonDir, "GITWARRANT_PENDING_N="+strconv.Itoa(each))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Meanwhile: use every third goroutine marker as it appears, which
	// compacts the log each time.
	used := map[string]bool{}
	deadline := time.Now().Add(30 * time.Second)
	for w := range writers {
		for i := 0; i < each; i += 3 {
			id := fmt.Sprintf("toolu_g%d_%d", w, i)
			for {
				if _, take, ok := findPending(place, id); ok {
					take()
					used[id] = true
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s never appeared", id)
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the helper process: %v", err)
	}
	compacted := 0
	for w := range writers {
		for i := range each {
			id := fmt.Sprintf("toolu_g%d_%d", w, i)
			if used[id] {
				mustMiss(t, place, id)
			} else {
				mustFind(t, place, id, "fix")
				compacted++
			}
		}
	}
	for i := range each {
		mustFind(t, place, fmt.Sprintf("toolu_p%d", i), "fix")
	}
	b, _ := os.ReadFile(pendingLog(place))
	if n := strings.Count(string(b), "\n"); n > compacted+each+len(used) {
		t.Errorf("the log was never compacted: %d lines", n)
	}
}

// TestPendingHelperProcess appends markers from a second process for
// TestPendingCompactsWithoutLoss.
func TestPendingHelperProcess(t *testing.T) {
	dir := os.Getenv("GITWARRANT_PENDING_HELPER")
	if dir == "" {
		t.Skip("run by TestPendingCompactsWithoutLoss")
	}
	n, _ := strconv.Atoi(os.Getenv("GITWARRANT_PENDING_N"))
	place := Place{Repo: &gitx.Repo{GitDir: dir, CommonDir: dir}}
	for i := range n {
		rememberPending(place, fmt.Sprintf("toolu_p%d", i), "fix")
	}
}

// TestPendingCompactDropsOldAndUsed: compaction keeps exactly the markers
// not used and under a week old, in order.
func TestPendingCompactDropsOldAndUsed(t *testing.T) {
	now := time.Unix(1_000_000_000, 0)
	old := now.Add(-pendingMaxAge - time.Hour).Unix()
	fresh := now.Add(-time.Hour).Unix()
	in := fmt.Sprintf("%d\ttoolu_a\tfix\n%d\ttoolu_b\tfix\n%d\t-toolu_b\n%d\ttoolu_c\tfix\n%d\ttoolu_b\tdeploy\ngarbage\n", fresh, fresh, fresh, old, fresh)
	want := fmt.Sprintf("%d\ttoolu_a\tfix\n%d\ttoolu_b\tdeploy\n", fresh, fresh)
	if got := string(compactPending([]byte(in), now)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// BenchmarkRememberPending: a marker as a line of the log against the
// file per marker it replaced (rememberPendingFile).
func BenchmarkRememberPending(b *testing.B) {
	for _, c := range []struct {
		name     string
		remember func(Place, string, string)
	}{{"log", rememberPending}, {"file-per-marker", rememberPendingFile}} {
		b.Run(c.name, func(b *testing.B) {
			place := pendingPlace(b)
			c.remember(place, "toolu_first", "fix") // the log, or the folder, exists
			b.ResetTimer()
			for i := range b.N {
				c.remember(place, "toolu_"+strconv.Itoa(i), "fix")
			}
		})
	}
}

// rememberPendingFile is rememberPending as it was before the log (commit
// c19aa36^, internal/gate/record.go): a file per marker in pendingDir,
// kept as the benchmark's baseline.
func rememberPendingFile(place Place, toolUseID, loop string) {
	name := markerName(toolUseID)
	if name == "" {
		return
	}
	dir := pendingDir(place)
	path := filepath.Join(dir, name)
	if err := fsx.WriteSmall(path, []byte(loop+"\n"), 0o644); errors.Is(err, fs.ErrNotExist) && os.MkdirAll(dir, 0o755) == nil {
		_ = fsx.WriteSmall(path, []byte(loop+"\n"), 0o644)
	}
}

// pendingFiller is n bytes of other calls' lines, markers and uses, with
// ids shaped as Claude Code's (toolu_01 and 22 letters and digits).
func pendingFiller(n int, at int64) []byte {
	var b []byte
	for i := 0; len(b) < n; i++ {
		id := fmt.Sprintf("toolu_01%022d", i*7919)
		b = fmt.Appendf(b, "%d\t%s\tfix\n", at, id)
		if i%2 == 0 {
			b = fmt.Appendf(b, "%d\t-%s\n", at, id)
		}
	}
	return b
}

// TestPendingReadsPastTheTail: findPending reads the log's tail first; a
// marker further back is still found, a use in the tail still cancels a
// marker further back, and a line cut by the tail's start is read whole.
func TestPendingReadsPastTheTail(t *testing.T) {
	place := pendingPlace(t)
	log := pendingLog(place)
	os.MkdirAll(filepath.Dir(log), 0o755)
	now := time.Now().Unix()
	var b []byte
	b = fmt.Appendf(b, "%d\ttoolu_early\tdeploy\n%d\ttoolu_used\tfix\n", now, now)
	b = append(b, pendingFiller(3*pendingTail, now)...)
	b = fmt.Appendf(b, "%d\t-toolu_used\n", now)
	b = append(b, pendingFiller(pendingTail-len(b)%pendingTail, now)...) // the tail starts inside the next line
	b = fmt.Appendf(b, "%d\ttoolu_straddle\tfix\n", now)
	b = append(b, pendingFiller(pendingTail-40, now)...)
	os.WriteFile(log, b, 0o644)
	mustFind(t, place, "toolu_early", "deploy")
	mustMiss(t, place, "toolu_used")
	mustFind(t, place, "toolu_straddle", "fix")
	mustMiss(t, place, "toolu_nowhere")
}

// BenchmarkFindPending: the PostToolUse hook's lookup in a log about to
// be compacted (pendingCompactAt), for a marker among the last lines and
// for an id the log does not hold, which reads it all.
func BenchmarkFindPending(b *testing.B) {
	place := pendingPlace(b)
	log := pendingLog(place)
	os.MkdirAll(filepath.Dir(log), 0o755)
	now := time.Now().Unix()
	data := pendingFiller(pendingCompactAt-2000, now)
	data = fmt.Appendf(data, "%d\ttoolu_01Recent4567890123456789\tfix\n", now)
	data = append(data, pendingFiller(1500, now)...)
	os.WriteFile(log, data, 0o644)
	for _, c := range []struct{ name, id string }{{"recent", "toolu_01Recent4567890123456789"}, {"absent", "toolu_01Absent4567890123456789"}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				findPending(place, c.id)
			}
		})
	}
}

// TestPendingPlantedHugeLog: code the agent ran can write the log; one
// grown far past anything compaction leaves is read no further back than
// pendingMaxRead, by the lookup and by the compaction that follows a use,
// and markers at its end still pair.
func TestPendingPlantedHugeLog(t *testing.T) {
	place := pendingPlace(t)
	log := pendingLog(place)
	os.MkdirAll(filepath.Dir(log), 0o755)
	early := fmt.Sprintf("%d\ttoolu_early\tfix\n", time.Now().Unix())
	junk := bytes.Repeat([]byte("x\tjunk junk junk junk junk junk\n"), pendingMaxRead/32+1024)
	if err := os.WriteFile(log, append([]byte(early), junk...), 0o644); err != nil {
		t.Fatal(err)
	}
	rememberPending(place, "toolu_late", "fix")
	mustMiss(t, place, "toolu_early") // beyond what is read
	mustFind(t, place, "toolu_late", "fix")()
	fi, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<10 {
		t.Errorf("the planted log was not compacted: %d bytes", fi.Size())
	}
}
