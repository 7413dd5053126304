//go:build unix

package cli

import (
	"io"
	"os"
	"syscall"
)

// replaceWithMCP turns this process into gitwarrant-mcp (execve) when it
// runs as the real binary: stdio are the process's own files, so the
// server inherits them unchanged. The server then has this process's pid,
// so whoever stops `gitwarrant serve` — a signal, SIGKILL included, or a
// supervisor waiting on the pid — stops the server itself, and no
// orphaned child keeps serving and writing the record
// (docs/mcp.md#the-server-binary). It returns only when it could not
// replace the process; the caller then runs the server as a child.
func replaceWithMCP(app *App, bin string, argv []string) error {
	if app.IO.In != io.Reader(os.Stdin) || app.IO.Out != io.Writer(os.Stdout) || app.IO.Err != io.Writer(os.Stderr) {
		return errNoReplace
	}
	return syscall.Exec(bin, append([]string{bin}, argv...), os.Environ())
}
