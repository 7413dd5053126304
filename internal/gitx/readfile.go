package gitx

import "github.com/gitwarrant/gitwarrant/internal/fsx"

// ReadFile is os.ReadFile for git's small files — its configs, HEAD,
// refs, the record's state — read again from memory while their stat
// data is unchanged (fsx.ReadCache, docs/performance.md#stat-trust): a
// hook decision in the server reads a dozen of them, each an open, an
// fstat, two reads and a close where one stat says whether it changed.
// The bytes returned are the caller's own.
func ReadFile(path string) ([]byte, error) { return smallFiles.ReadFile(path) }

// smallFiles is the process's memo of small files by stat data. It
// changes no answer, only what a repeated read costs: a file whose stamp
// moved is read again (fsx.ReadCache says when a stamp can be trusted).
// Files over 1 MiB are never kept, and 16 MiB in all.
var smallFiles = fsx.NewReadCache(1<<20, 16<<20)
