package gitx

// Change is what DiffQuiet found.
type Change int

const (
	// Unknown: git could not compare the two (a word that is not a
	// commit, a missing repository).
	Unknown Change = iota
	// Same: the path is the same at both commits.
	Same
	// Differs: the path differs between the commits (or exists at one
	// only) — or git did not answer within its time, so it may.
	Differs
)

// DiffQuiet asks git, run in dir, whether path differs between two
// revisions: `git diff --quiet --no-ext-diff --no-textconv A B -- path`.
// No external diff or text conversion runs, and it gives up after two
// seconds.
func DiffQuiet(dir, a, b, path string) Change {
	return PathsChange(dir, []string{a, b}, []string{path})
}
