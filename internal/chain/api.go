// Package chain is the record: JSONL entries, SHA-256 hash-chained per the
// Loop File Spec ("The hash chain") and docs/design.md#the-record. It is a leaf package: it
// reads and writes files and never runs processes.
//
// api.go holds the types other packages code against; canonical.go, entry.go,
// file.go and verify.go implement them.
package chain

import "time"

// Genesis is the prev of the first entry.
const Genesis = "GENESIS"

// Kinds of entry. The set is open: a reader keeps unknown kinds and their
// fields, and they hash like any other.
const (
	KindCheck    = "check"
	KindNote     = "note"
	KindAmend    = "amend"
	KindProposal = "proposal"
)

// Entry is one record line. Known fields are typed; every other field
// (amend and proposal bodies, fields written by docket or a later version)
// lives in Extra and is hashed exactly like the typed ones.
type Entry struct {
	Seq  int64  `json:"seq"`
	TS   string `json:"ts"`
	Loop string `json:"loop"`
	Kind string `json:"kind"`

	// check
	Action   string `json:"action,omitempty"`
	Target   string `json:"target,omitempty"`
	Verdict  string `json:"verdict,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Via      string `json:"via,omitempty"`
	LoopBlob string `json:"loop_blob,omitempty"` // loops.Loop.BlobID when the check ran
	Engine   string `json:"engine,omitempty"`    // loops.EngineVersion when the check ran

	// note
	Saw     string `json:"saw,omitempty"`
	Did     string `json:"did,omitempty"`
	Skipped string `json:"skipped,omitempty"`
	Stopped string `json:"stopped,omitempty"`
	Note    string `json:"note,omitempty"`

	Extra map[string]any `json:"-"`

	Prev string `json:"prev"`
	Hash string `json:"hash"`
}

// Break names the first entry at which a chain fails to verify.
type Break struct {
	Seq    int64  // seq the entry should have had (or had), 0 if unknown
	Line   int    // 1-based line in the file
	Reason string // one of the Reason* constants
	Detail string // human detail: expected vs found
}

// Reasons a chain breaks.
const (
	ReasonBadHash    = "bad hash"
	ReasonBadPrev    = "bad prev"
	ReasonSeqGap     = "seq gap"
	ReasonUnparsable = "unparsable line"
	ReasonTorn       = "torn last line"
)

// Report is the result of verifying one chain.
type Report struct {
	Path    string
	Entries int    // entries that verified
	Head    string // hash of the last verified entry ("" when empty)
	LastSeq int64
	Hashes  []string // every verified hash, in order (for --head lookups)
	Break   *Break   // nil when the whole chain verified

	// Unterminated is set when the last line verified but lacks its
	// newline; Append refuses to write after it (docs/design.md#the-record: never repair
	// silently).
	Unterminated bool

	index map[string]int64 // hash → seq, built on the first HeadStatus lookup
}

// OK reports whether the chain verified end to end.
func (r *Report) OK() bool { return r.Break == nil }

// HeadStatus says where a pinned head sits in a chain.
type HeadStatus int

// Head statuses (docs/design.md#the-record: present but not last = grew since; missing =
// likely truncation or rewrite).
const (
	HeadIsLast HeadStatus = iota
	HeadPresent
	HeadMissing
)

// Appender appends entries to one chain.
type Appender interface {
	// Append fills Seq, TS (if empty), Prev and Hash, writes the entry as
	// one line, and returns it as written.
	Append(e Entry) (Entry, error)
}

// File is a chain stored in one JSONL file, appended under an exclusive
// lock, reading only the tail (O(1) in the chain's size).
type File struct {
	Path string
	// LockPath defaults to Path + ".lock".
	LockPath string
	// Now defaults to time.Now.
	Now func() time.Time
	// Prepare, if set, runs under the lock once Seq, Prev and TS are set
	// and before the hash: a signed entry signs its own chain position
	// (docs/signing.md#what-a-signature-binds). It may add fields but not
	// change Seq, Prev or TS; an error writes nothing.
	Prepare func(e Entry) (Entry, error)
}

var _ Appender = (*File)(nil)
