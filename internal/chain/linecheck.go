package chain

// LineVerifier is the verify fast path for callers outside this package
// that check lines one by one (the CI gate's new entries): one per
// goroutine, as it reuses its hash state.
type LineVerifier struct{ f *fastHasher }

// NewLineVerifier returns a LineVerifier.
func NewLineVerifier() *LineVerifier { return &LineVerifier{f: newFastHasher()} }

// Verify returns a line's seq, prev and hash when the line is canonical,
// well typed, no longer than MaxLine, and its hash is the hash of its own
// fields after its own prev. ok false says nothing is wrong, only that the
// line must go the full way (ParseEntry and ComputeHash), which alone
// reports what is (docs/record.md#verification).
func (v *LineVerifier) Verify(line []byte) (seq int64, prev, hash string, ok bool) {
	if len(line) > MaxLine {
		return 0, "", "", false
	}
	fe, ok := v.f.verify(line)
	if !ok {
		return 0, "", "", false
	}
	return fe.seq, string(fe.prev), string(fe.hash), true
}
