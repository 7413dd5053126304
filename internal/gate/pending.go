package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/fsx"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// Approval evidence (docs/hook-protocol.md#approval-evidence): the
// PreToolUse check leaves a marker per recorded call, its tool_use_id and
// loop; the PostToolUse hook, which Claude Code runs only when the tool
// actually ran, turns the marker into a note on the record. An ask with a
// matching note was approved by a person; one without was refused
// (hook.AskOutcomes). The markers are local state
// (docs/design.md#repository-layout: .git/gitwarrant/, never committed).
//
// A marker is one line of an append-only log, `<unix time>\t<id>\t<loop>`,
// and its use one more, `<unix time>\t-<id>`: appending a line to a file
// that exists costs a few microseconds, where the file per marker this
// replaces made a directory entry per recorded call, 20–180 µs on ext4
// (docs/performance.md#the-approval-log). Lines are appended in one write
// each under a shared lock (fsx.AppendShared); the PostToolUse hook that
// finds the log over pendingCompactAt rewrites it under an exclusive lock,
// keeping only the markers not yet used and younger than pendingMaxAge
// (fsx.RewriteShared), so no marker appended meanwhile is lost.

const pendingMaxAge = 7 * 24 * time.Hour

// pendingCompactAt is the log's size past which the PostToolUse hook
// rewrites it. Tests lower it.
var pendingCompactAt = 256 << 10

// pendingLog is the markers' log: in the git dir in a repository, else in
// the temporary directory, keyed by the project.
func pendingLog(place Place) string {
	if place.Repo != nil {
		return filepath.Join(place.Repo.CommonDir, "gitwarrant", "hook-pending.log")
	}
	return pendingDir(place) + ".log"
}

// pendingDir is where the markers of earlier versions live, a file each
// (still paired, then removed).
func pendingDir(place Place) string {
	if place.Repo != nil {
		return filepath.Join(place.Repo.CommonDir, "gitwarrant", "hook-pending")
	}
	sum := sha256.Sum256([]byte(place.Project.Dir))
	return filepath.Join(os.TempDir(), "gitwarrant-hook-pending-"+hex.EncodeToString(sum[:6]))
}

// markerName is a tool_use_id fit for a marker, or "" when it holds
// anything but the characters Claude Code uses (toolu_…).
func markerName(id string) string {
	if id == "" || len(id) > 128 {
		return ""
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return ""
		}
	}
	return id
}

// ViaHTTPHook is the channel recorded with a check that came to the
// server as Claude Code's http hook.
const ViaHTTPHook = "hook-http"

// postFollows reports whether a PostToolUse hook may use this check's
// marker: only Claude Code has one, behind its command hook (via "hook")
// and its http hook ("hook-http"). Another client's marker would wait in
// the log for a use that never comes, and keep it from being compacted.
func (o Options) postFollows() bool {
	switch o.via() {
	case "hook", ViaHTTPHook:
		return true
	}
	return false
}

// rememberPending appends the marker for a recorded check. Failing to
// write it loses only the approval evidence, never the check, so it is
// silent.
func rememberPending(place Place, toolUseID, loop string) {
	name := markerName(toolUseID)
	if name == "" || !loops.ValidName(loop) {
		return
	}
	appendPending(pendingLog(place), fmt.Sprintf("%d\t%s\t%s\n", time.Now().Unix(), name, loop))
}

// appendPending appends line to the log at path, making its folder.
func appendPending(path, line string) {
	if err := fsx.AppendShared(path, []byte(line)); errors.Is(err, fs.ErrNotExist) && os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = fsx.AppendShared(path, []byte(line))
	}
}

// findPending looks for the marker of the call name (a markerName): the
// loop it was checked under, and take, which marks it used, so that it
// pairs with one note at most. A marker in the log wins; else one of an
// earlier version's files.
func findPending(place Place, name string) (loop string, take func(), ok bool) {
	path := pendingLog(place)
	if loop, size, ok := readPending(path, name); ok {
		return loop, func() {
			appendPending(path, fmt.Sprintf("%d\t-%s\n", time.Now().Unix(), name))
			if size > int64(pendingCompactAt) {
				_ = fsx.RewriteShared(path, pendingMaxRead, func(b []byte) []byte { return compactPending(b, time.Now()) })
			}
			pruneOldPending(pendingDir(place))
		}, true
	}
	dir := pendingDir(place)
	marker := filepath.Join(dir, name)
	raw, err := os.ReadFile(marker)
	if err != nil {
		return "", nil, false
	}
	return strings.TrimSpace(string(raw)), func() { _ = os.Remove(marker); pruneOldPending(dir) }, true
}

// pendingTail is how much of the log's end readPending reads first. A
// PostToolUse comes right after its call ran, so its marker is nearly
// always among the last lines; reading and scanning the whole log, a
// third of a millisecond when it nears pendingCompactAt
// (docs/performance.md#the-approval-log), is left for an id the tail
// does not hold.
const pendingTail = 16 << 10

// pendingMaxRead bounds what is read of the log, by a lookup or a
// compaction: a log planted at gigabytes by code the agent ran costs no
// more than this.
const pendingMaxRead = 16 << 20

// readPending is the loop of name's newest marker in the log at path, ok
// when no use follows it, and the log's size (fstat), which tells the
// caller whether to compact. It reads the log's tail first and the whole
// log only when the tail holds no line of name's.
func readPending(path, name string) (loop string, size int64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", 0, false
	}
	size = info.Size()
	// The whole log is at most pendingMaxRead: compaction keeps it far
	// smaller, so only a log something else filled is longer, and its
	// older lines are not read (a marker lost is evidence lost, never a
	// check).
	for _, limit := range []int64{pendingTail, pendingMaxRead} {
		buf, err := fsx.ReadLastLines(f, size, limit)
		if err != nil {
			return "", size, false
		}
		if loop, found, ok := lastPending(buf, name); found || size <= limit {
			return loop, size, ok
		}
	}
	return "", size, false
}

// pendingLine is one line of the log: a marker (loop set) or a use.
type pendingLine struct {
	at   int64
	id   string
	loop string // "" for a use
}

// parsePending reads one line; false for a line that is not one the log
// holds (torn, garbled, or naming what no marker names).
func parsePending(line []byte) (pendingLine, bool) {
	f := strings.Split(string(line), "\t")
	var p pendingLine
	at, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return p, false
	}
	p.at = at
	switch {
	case len(f) == 3 && markerName(f[1]) != "" && loops.ValidName(f[2]):
		p.id, p.loop = f[1], f[2]
	case len(f) == 2 && strings.HasPrefix(f[1], "-") && markerName(f[1][1:]) != "":
		p.id = f[1][1:]
	default:
		return p, false
	}
	return p, true
}

// lastPending looks for name's newest line among data's whole lines
// (data starts at a line's start): found when there is one, ok when it is
// a marker rather than a use, with the marker's loop. Only the lines that
// hold name are parsed.
func lastPending(data []byte, name string) (loop string, found, ok bool) {
	key := []byte(name)
	for i := 0; ; {
		j := bytes.Index(data[i:], key)
		if j < 0 {
			return loop, found, ok
		}
		j += i
		start := bytes.LastIndexByte(data[:j], '\n') + 1
		end := bytes.IndexByte(data[j:], '\n')
		if end < 0 {
			return loop, found, ok // a torn last line
		}
		end += j
		if p, valid := parsePending(data[start:end]); valid && p.id == name {
			loop, found, ok = p.loop, true, p.loop != ""
		}
		i = end + 1
	}
}

// compactPending keeps the markers of data not yet used and younger than
// pendingMaxAge at now, in order.
func compactPending(data []byte, now time.Time) []byte {
	used := map[string]bool{}
	var lines [][]byte
	var parsed []pendingLine
	for line := range bytes.Lines(data) {
		if !bytes.HasSuffix(line, []byte("\n")) {
			continue
		}
		p, ok := parsePending(line[:len(line)-1])
		if !ok {
			continue
		}
		lines, parsed = append(lines, line), append(parsed, p)
	}
	// A use cancels the markers before it; a marker after a use of the
	// same id is a new one.
	keep := make([]bool, len(parsed))
	for i := len(parsed) - 1; i >= 0; i-- {
		p := parsed[i]
		if p.loop == "" {
			used[p.id] = true
			continue
		}
		keep[i] = !used[p.id] && now.Sub(time.Unix(p.at, 0)) <= pendingMaxAge
	}
	var out []byte
	for i, line := range lines {
		if keep[i] {
			out = append(out, line...)
		}
	}
	return out
}

// pruneOldPending drops an earlier version's marker files of calls that
// never ran (refused asks) once they are old, and the folder once empty.
func pruneOldPending(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > pendingMaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	_ = os.Remove(dir) // only if empty
}
