package mcpcmd

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/cli"
)

// startTimeout is how long `serve --detach` waits for the server it
// started to listen.
const startTimeout = 5 * time.Second

// runDetach is `serve --detach`, what the SessionStart hook runs: make
// sure this repository's server listens at o.addr and return. It starts
// one in the background (its own session, output to serve.log) unless one
// already holds the repository's lock; one at another address is an
// error, since the hook's URL names o.addr (docs/hook-protocol.md#the-http-hook).
func runDetach(app *cli.App, o serveOptions) error {
	dir, err := cli.StateDir(app)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return cli.Failf("%v", err)
	}
	if ok, err := alreadyServing(dir, o.addr); ok {
		return nil
	} else if errors.Is(err, errOtherAddr) {
		// The hook's URL names o.addr now (install chose another port):
		// this repository's server moves there.
		if err := stopServer(dir); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	// The path as invoked (app.Self) keeps the name it was run under,
	// which a multi-call binary dispatches on.
	self := app.Self
	if self == "" {
		if self, err = os.Executable(); err != nil {
			return cli.Failf("finding this program to start the server: %v", err)
		}
	}
	args := []string{"serve", "--repo-lock", "--addr", o.addr}
	if app.DirFlag != "" {
		args = append(args, "--dir", app.DirFlag)
	}
	if o.idle > 0 {
		args = append(args, "--idle-exit", o.idle.String())
	}
	if o.limits != "" {
		args = append(args, "--limits", o.limits)
	}
	logPath := filepath.Join(dir, serveLogFile)
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return cli.Failf("%v", err)
	}
	defer logf.Close()
	cmd := exec.Command(self, args...)
	cmd.Dir = app.Cwd
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return cli.Failf("starting the hook server: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(startTimeout)
	for {
		if st, err := readServeState(dir); err == nil && st.PID == cmd.Process.Pid {
			return nil
		}
		select {
		case err := <-exited:
			// Another SessionStart may have won the race for the lock:
			// then the server it started is the one to check.
			if ok, aerr := alreadyServing(dir, o.addr); ok || aerr != nil {
				return aerr
			}
			return cli.Failf("the hook server exited at start (%v): %s", err, logTail(logPath))
		case <-deadline:
			return cli.Failf("the hook server did not start listening at %s within %s: %s", o.addr, startTimeout, logTail(logPath))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// alreadyServing reports whether a server holds the repository's lock and
// listens at addr; one at another address is an error.
func alreadyServing(dir, addr string) (bool, error) {
	f, err := tryLock(filepath.Join(dir, serveLockFile))
	if err == nil {
		f.Close()
		return false, nil
	}
	if !errors.Is(err, errLockHeld) {
		return false, cli.Failf("%v", err)
	}
	st, err := waitServeState(dir, startTimeout)
	switch {
	case err != nil:
		return false, cli.Failf("a gitwarrant server holds %s but wrote no address (%v): stop it, then start a session again", filepath.Join(dir, serveLockFile), err)
	case st.Addr != addr:
		return false, &cli.ExitError{Code: cli.ExitError1, Err: fmt.Errorf("this repository's gitwarrant server (pid %d) listens at %s, not at %s, where the hook posts: %w", st.PID, st.Addr, addr, errOtherAddr),
			Hint: fmt.Sprintf("stop it (kill %d), then start a session again", st.PID)}
	}
	return true, nil
}

// errOtherAddr says the repository's server listens at another address.
var errOtherAddr = errors.New("another address")

// stopServer stops the repository's server (the pid its serve.json names,
// which holds the lock) and waits until the lock is free.
func stopServer(dir string) error {
	st, err := readServeState(dir)
	if err != nil {
		return cli.Failf("%v", err)
	}
	if p, err := os.FindProcess(st.PID); err == nil {
		_ = p.Signal(syscall.SIGTERM)
	}
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		if f, err := tryLock(filepath.Join(dir, serveLockFile)); err == nil {
			f.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cli.Failf("this repository's gitwarrant server (pid %d, at %s) did not stop within %s: stop it (kill %d), then start a session again", st.PID, st.Addr, startTimeout, st.PID)
}

// logTail is the last lines of the server's log, for an error message.
func logTail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return fmt.Sprintf("%s says: %s", path, strings.Join(lines, " / "))
}
