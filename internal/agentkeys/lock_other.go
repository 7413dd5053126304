//go:build !unix

package agentkeys

// lockFile is a no-op where flock is missing; the server is Unix-first.
func lockFile(string) (func(), error) { return func() {}, nil }
