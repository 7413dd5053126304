package record

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Packing (docs/record.md#packing): every PackEvery events of a writer,
// the append that crosses the mark packs that writer's new objects into
// one kept pack, still under the writer's lock; every PackFanIn kept packs
// of one level are merged into one of the next, so a million events leave
// a few dozen packs at most, and `git gc --auto` (which counts neither
// kept packs nor packed objects) never runs inside a user's command
// because of the record.
const (
	PackEvery = 256
	PackFanIn = 8
	// packFirstMax bounds the first pack of a ref that grew before packing
	// was done: older objects stay where they are (gc may have packed them).
	packFirstMax = 4 * PackEvery
)

// maybePack runs after a successful append of writer w's entry, under w's
// lock — or, for a server's journal, after it, so that answers do not
// wait for `git pack-objects`: pack then checks, under the pack lock, that
// no one packed meanwhile. A failure is reported, never returned: the
// entry is recorded.
func (r *Record) maybePack(w string, cr *gitx.ChainRef) {
	path := r.statePath("packed", w)
	last, lastLines := readPacked(path)
	if cr.Lines-lastLines < PackEvery {
		return
	}
	tip := cr.Commit.String()
	since := last
	if n := cr.Lines - lastLines; last == "" || n > packFirstMax {
		since = ""
		if cr.Lines > packFirstMax {
			since = fmt.Sprintf("%s~%d", tip, packFirstMax)
			if _, err := r.repo.Git("rev-parse", "-q", "--verify", since); err != nil {
				since = "" // fewer commits than entries (a bulk import): pack it all, once
			}
		}
	}
	if err := r.pack(w, path, tip, since, last, cr.Lines); err != nil {
		// try again PackEvery events later, from the same point
		writePacked(path, last, cr.Lines)
		if r.Warn != nil {
			fmt.Fprintf(r.Warn, "gitwarrant: the entry is recorded, but packing the record's objects failed: %v (retried in %d events)\n", err, PackEvery)
		}
	}
}

func writePacked(path, commit string, lines int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(fmt.Sprintf("%s %d\n", commit, lines)))
}

func (r *Record) pack(w, path, tip, since, last string, lines int64) error {
	unlock, err := chain.Lock(r.statePath("locks", "pack.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	if cur, _ := readPacked(path); cur != last {
		return nil // packed meanwhile: a server packs without the writer's lock (Journal)
	}
	name, err := r.repo.PackRange(tip, since)
	if err != nil {
		return err
	}
	if err := writePacked(path, tip, lines); err != nil {
		return err
	}
	levels := r.readPackLevels()
	levels = append(levels, packLevel{0, name})
	for lvl := 0; ; lvl++ {
		var same []string
		var rest []packLevel
		for _, p := range levels {
			if p.level == lvl {
				same = append(same, p.name)
			} else {
				rest = append(rest, p)
			}
		}
		if len(same) < PackFanIn {
			break
		}
		merged, err := r.repo.MergePacks(same)
		if err != nil {
			return err
		}
		levels = append(rest, packLevel{lvl + 1, merged})
	}
	var b strings.Builder
	for _, p := range levels {
		fmt.Fprintf(&b, "%d %s\n", p.level, p.name)
	}
	return writeFileAtomic(r.statePath("packs"), []byte(b.String()))
}

type packLevel struct {
	level int
	name  string
}

func (r *Record) readPackLevels() []packLevel {
	f, err := os.Open(r.statePath("packs"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []packLevel
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l, name, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.Atoi(l)
		if ok && err == nil && fileExists(r.repo.CommonDir+"/objects/pack/"+name) {
			out = append(out, packLevel{n, name})
		}
	}
	return out
}

func readPacked(path string) (string, int64) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0
	}
	c, n, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	lines, _ := strconv.ParseInt(n, 10, 64)
	return c, lines
}
