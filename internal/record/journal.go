package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
)

// Journal is how a long-lived server (`gitwarrant serve`, answering
// Claude Code's http hook) records (docs/record.md#the-journal): under the
// writer's lock it seals the entry after the chain's head, which it keeps
// in memory, and appends the line to the writer's journal in one write;
// once the write has returned the check is recorded and may be answered.
// A goroutine per writer then commits what the journal holds to the
// writer's ref, one commit per batch, and empties it. Everything else that
// writes or reads that writer's record commits the journal first
// (lockWriter, Open), so a server killed between the answer and the
// commit loses nothing.
//
// Journal is safe for concurrent use. Close commits what is left.
type Journal struct {
	// Warn receives what the person should know (a journal refused, a
	// commit that failed and will be retried); nil drops it.
	Warn io.Writer
	// Now is the clock for entries and commits (nil: time.Now).
	Now func() time.Time

	mu     sync.Mutex
	states map[string]*journalState
	wg     sync.WaitGroup
	closed bool
	// manual starts no committer: the tests commit by hand, to change the
	// journal between an answer and its commit.
	manual bool
}

// commitDelay is how long the committer waits after a check before it
// commits: a burst of checks becomes one commit, whose CPU time (loose
// objects, a ref move: about 2.5 ms) would otherwise compete with the
// answers on a loaded machine. The journal is as durable meanwhile.
const commitDelay = 200 * time.Millisecond

// maxJournal bounds the bytes a journal may hold uncommitted: past it
// (the ref cannot be written), appends fail and the checks ask.
const maxJournal = 4 << 20

// journalState is what the server knows of one writer's chain.
type journalState struct {
	mu   sync.Mutex
	r    *Record
	w    string
	path string
	sync bool // fsync each line (core.fsync covers loose objects or refs)
	kick chan struct{}
	// closed is set, under mu, when Close closes kick.
	closed bool
	// gen counts the times the state was read again from disk: a commit
	// prepared under one generation is published only under the same.
	gen int

	known bool          // the fields below were read under the lock
	ref   plumbing.Hash // the ref, as last read or moved
	seq   int64         // the chain's head: ref and journal
	hash  string
	// pending is what this server wrote to the journal since the ref last
	// held all of it, byte for byte: the journal must hold exactly this.
	pending []byte
	// answered is the last entry this server answered; the ref must come
	// to hold it (a drain by another process included).
	answered     int64
	answeredHash string
}

// NewJournal returns a journal writing to the record of whichever
// repository each Append names.
func NewJournal(warn io.Writer) *Journal {
	return &Journal{Warn: warn, states: map[string]*journalState{}}
}

func (j *Journal) now() time.Time {
	if j.Now == nil {
		return time.Now()
	}
	return j.Now()
}

// Append records e in r's record and returns it as written. Outside Git
// (no ref, no journal) it appends as Record.Append does.
func (j *Journal) Append(r *Record, e chain.Entry) (chain.Entry, error) {
	r.Now, r.Warn = j.now, j.Warn
	if r.repo == nil {
		return r.Append(e)
	}
	if e.Kind == "" {
		return chain.Entry{}, fmt.Errorf("entry has no kind; set Kind (e.g. %q)", chain.KindNote)
	}
	w, err := r.Writer()
	if err != nil {
		return chain.Entry{}, err
	}
	st, err := j.state(r, w)
	if err != nil {
		return chain.Entry{}, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return chain.Entry{}, errors.New("the server is stopping; the check was not recorded")
	}
	unlock, err := chain.Lock(st.r.lockPath(w))
	if err != nil {
		return chain.Entry{}, err
	}
	defer unlock()
	if err := st.check(j); err != nil {
		return chain.Entry{}, err
	}
	if len(st.pending) > maxJournal {
		return chain.Entry{}, fmt.Errorf("the journal %s holds %d bytes its server could not commit to %s (see serve.log)", st.path, len(st.pending), gitx.RecordRef(w))
	}
	line, e, err := sealAfter(e, st.seq, st.hash, nil, j.now)
	if err != nil {
		return chain.Entry{}, err
	}
	if err := st.write(line); err != nil {
		return chain.Entry{}, err
	}
	st.seq, st.hash = e.Seq, e.Hash
	st.answered, st.answeredHash = e.Seq, e.Hash
	select {
	case st.kick <- struct{}{}:
	default:
	}
	return e, nil
}

// state returns writer w's state, starting its committer on first use.
func (j *Journal) state(r *Record, w string) (*journalState, error) {
	key := r.lockPath(w)
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, errors.New("the server is stopping; the check was not recorded")
	}
	if st := j.states[key]; st != nil {
		return st, nil
	}
	dir := r.statePath(journalDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a directory (a symbolic link?): the server journals nowhere but in the git dir itself", d)
		}
	}
	st := &journalState{r: r, w: w, path: r.journalPath(w), sync: fsyncsRecord(r.repo), kick: make(chan struct{}, 1)}
	j.states[key] = st
	if j.manual {
		return st, nil
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		for range st.kick {
			time.Sleep(commitDelay) // gathers the checks of a burst into one commit
			j.commit(st)
		}
	}()
	return st, nil
}

// check makes st agree with the ref and the journal on disk; the writer's
// lock and st.mu are held. When the ref and the journal's size are as
// this server left them, the head it keeps is the head. Otherwise someone
// else moved the ref or touched the journal: the journal is committed as
// any other writer commits it (drainLocked), and the ref must then hold
// the last entry this server answered.
func (st *journalState) check(j *Journal) error {
	r, w := st.r, st.w
	ref, err := r.repo.ReadRef(gitx.RecordRef(w))
	if err != nil {
		return err
	}
	size := int64(-1)
	if fi, err := os.Lstat(st.path); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	} else if errors.Is(err, fs.ErrNotExist) {
		size = 0
	}
	if st.known && ref == st.ref && size == int64(len(st.pending)) {
		return nil
	}
	st.known = false
	st.gen++
	if _, err := r.drainLocked(w); err != nil {
		return err
	}
	cr, err := r.liveRef(w)
	if err != nil {
		return err
	}
	seg, _, err := r.repo.LastSegment(cr)
	if err != nil {
		return err
	}
	if st.answered > 0 {
		st.holdsAnswered(j, cr, seg)
	}
	seq, hash, err := lastOf(cr, seg)
	if err != nil {
		return err
	}
	st.ref, st.seq, st.hash, st.pending, st.known = cr.Commit, seq, hash, nil, true
	return nil
}

// holdsAnswered reports, by setting aside what this server answered, a ref
// that does not hold the last entry this server answered: its journal was
// changed before it was committed. The hash chain makes one entry enough:
// an entry with that hash at that seq has every answered entry before it.
func (st *journalState) holdsAnswered(j *Journal, cr *gitx.ChainRef, seg []byte) {
	if cr.Lines >= st.answered {
		if b, err := st.r.repo.ReadRange(cr, st.answered, st.answered); err == nil {
			if e, err := chain.DecodeEntry(bytes.TrimSuffix(b, []byte("\n"))); err == nil && e.Hash == st.answeredHash {
				return
			}
		}
	}
	why := fmt.Sprintf("entry %d, answered by this server as %s, is not on %s: the journal was changed before it was committed; the lines this server wrote are kept here", st.answered, st.answeredHash, cr.Name)
	lost := st.path + ".lost"
	if err := os.WriteFile(lost, st.pending, 0o644); err == nil {
		st.r.setAside(st.w, lost, why)
	} else if j.Warn != nil {
		fmt.Fprintf(j.Warn, "gitwarrant: %s (and they could not be kept: %v)\n", why, err)
	}
	st.answered = 0
}

// write appends line to the journal in one write, creating it; a write
// cut short is cut off again, so the journal never ends in a line its
// server did not answer.
func (st *journalState) write(line []byte) error {
	if fi, err := os.Lstat(filepath.Dir(st.path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (a symbolic link?): the server journals nowhere but in the git dir itself", filepath.Dir(st.path))
	}
	fh, err := openJournal(st.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return fmt.Errorf("opening the journal %s: %w", st.path, err)
	}
	n, err := fh.Write(line)
	if err == nil && st.sync {
		err = fh.Sync()
	}
	if err != nil {
		if n > 0 {
			_ = fh.Truncate(int64(len(st.pending)))
		}
		fh.Close()
		return fmt.Errorf("writing the journal %s: %w", st.path, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("writing the journal %s: %w", st.path, err)
	}
	st.pending = append(st.pending, line...)
	return nil
}

// commit moves what the journal holds onto the ref. The commit's objects
// are written without the lock (they are only reachable once the ref
// moves), so an answer waits for the lock only while the ref moves and
// the journal is emptied.
func (j *Journal) commit(st *journalState) {
	r, w := st.r, st.w
	lines, cr, gen, err := st.snapshot(j)
	if err != nil || len(lines) == 0 {
		if err != nil {
			j.warnf("gitwarrant: committing the journal of %s: %v (retried on the next check)\n", w, err)
		}
		return
	}
	seg, _, err := r.repo.LastSegment(cr)
	var next *gitx.ChainRef
	if err == nil {
		next, err = r.journalCommit(w, cr, seg, lines)
	}
	if err != nil {
		j.warnf("gitwarrant: committing the journal of %s: %v (retried on the next check)\n", w, err)
		return
	}
	if err := st.publish(cr, next, gen, len(lines)); err != nil {
		j.warnf("gitwarrant: committing the journal of %s: %v (retried on the next check)\n", w, err)
		return
	}
	r.maybePack(w, next)
}

// snapshot returns, under the lock, the lines to commit and the ref they
// follow. A journal that is not byte for byte what this server wrote is
// set aside and written again from memory: the server commits what it
// answered, and `record verify` reports the changed file.
func (st *journalState) snapshot(j *Journal) ([]byte, *gitx.ChainRef, int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	unlock, err := chain.Lock(st.r.lockPath(st.w))
	if err != nil {
		return nil, nil, 0, err
	}
	defer unlock()
	if err := st.check(j); err != nil {
		return nil, nil, 0, err
	}
	if len(st.pending) == 0 {
		return nil, nil, 0, nil
	}
	if data, err := readJournal(st.path); err != nil || !bytes.Equal(data, st.pending) {
		st.r.setAside(st.w, st.path, "it is not what its server wrote (same size, other bytes); the server committed the lines it answered")
		if err := st.rewrite(st.pending); err != nil {
			return nil, nil, 0, err
		}
	}
	cr, err := st.r.repo.ReadChainRef(gitx.RecordRef(st.w))
	if err != nil {
		return nil, nil, 0, err
	}
	return append([]byte(nil), st.pending...), cr, st.gen, nil
}

// publish moves the ref from cr to next, which adds the journal's first n
// bytes, and leaves in the journal only what was written since. A ref
// moved meanwhile (another process committed the journal) leaves the
// commit unused: the next check finds the ref and the journal changed.
func (st *journalState) publish(cr, next *gitx.ChainRef, gen, n int) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	unlock, err := chain.Lock(st.r.lockPath(st.w))
	if err != nil {
		return err
	}
	defer unlock()
	if cur, err := st.r.repo.ReadRef(cr.Name); err != nil || cur != cr.Commit || cur != st.ref || gen != st.gen || n > len(st.pending) {
		return err
	}
	if err := st.r.repo.UpdateRef(cr.Name, next.Commit, cr.Commit); err != nil {
		return err
	}
	st.ref = next.Commit
	if !cr.Exists() {
		if err := st.r.markStarted(st.w); err != nil {
			return err
		}
	}
	rest := st.pending[n:]
	if len(rest) == 0 {
		err = os.Truncate(st.path, 0)
	} else {
		err = st.rewrite(rest)
	}
	if err != nil {
		st.known = false // the next check commits it as anyone would
		return err
	}
	st.pending = append([]byte(nil), rest...)
	return nil
}

// rewrite replaces the journal with data (a temporary file renamed into
// place, so a reader finds the old journal or the new one).
func (st *journalState) rewrite(data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(st.path), st.w+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil && st.sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), st.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Close stops the committers and commits what every journal still holds.
// Appends after Close fail (their checks ask).
func (j *Journal) Close() error {
	j.mu.Lock()
	j.closed = true
	states := make([]*journalState, 0, len(j.states))
	for _, st := range j.states {
		st.mu.Lock()
		st.closed = true
		close(st.kick)
		st.mu.Unlock()
		states = append(states, st)
	}
	j.mu.Unlock()
	j.wg.Wait()
	var errs []error
	for _, st := range states {
		st.mu.Lock()
		unlock, err := chain.Lock(st.r.lockPath(st.w))
		if err == nil {
			_, err = st.r.drainLocked(st.w)
			unlock()
		}
		st.mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("committing the journal of %s: %w", st.w, err))
		}
	}
	return errors.Join(errs...)
}

func (j *Journal) warnf(format string, args ...any) {
	if j.Warn != nil {
		fmt.Fprintf(j.Warn, format, args...)
	}
}

// fsyncsRecord reports whether Git, configured as repo is, would fsync
// the loose objects or refs the record's commits are made of: then every
// journal line is fsynced too, so the journal is never less durable than
// the commit it stands in for. By default (core.fsync unset) Git fsyncs
// neither (docs/record.md#the-journal).
func fsyncsRecord(repo *gitx.Repo) bool {
	files := []string{filepath.Join(repo.CommonDir, "config")}
	if h, err := os.UserHomeDir(); err == nil {
		files = append(files, filepath.Join(h, ".gitconfig"))
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	cfg := gitx.ConfigEntries(files...)
	if v := cfg["core.fsyncobjectfiles"]; len(v) > 0 && strings.EqualFold(v[len(v)-1], "true") {
		return true
	}
	on := false
	for _, v := range cfg["core.fsync"] {
		for _, c := range strings.Split(v, ",") {
			c = strings.TrimSpace(strings.ToLower(c))
			neg := strings.HasPrefix(c, "-")
			switch strings.TrimPrefix(c, "-") {
			case "loose-object", "objects", "reference", "committed", "added", "all":
				on = !neg
			case "none":
				on = false
			}
		}
	}
	return on
}
