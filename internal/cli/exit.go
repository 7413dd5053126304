package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Exit codes. One table for the whole tool (docs/design.md#code-shape, habit 3); every command's
// help lists the ones it uses.
const (
	ExitOK     = 0 // success, or verdict allow
	ExitError1 = 1 // usage error, load error, verification failure
	ExitAsk    = 2 // verdict ask, or no loop covers the task
	ExitDeny   = 3 // verdict deny
)

// ExitCodesHelp is appended to help texts of commands that gate on verdicts.
const ExitCodesHelp = `
Exit status:
  0  allow
  1  usage or load error
  2  ask (a human must approve) — also "no loop covers this"
  3  deny (a hard stop)`

// ExitError carries an exit code. With a nil Err it is silent: the command
// already printed what the user needs (a verdict, a report).
type ExitError struct {
	Code int
	Err  error
	Hint string // what to do next; printed once, after the message
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Silent returns an error that only sets the exit code.
func Silent(code int) error { return &ExitError{Code: code} }

// Usagef reports a usage error (exit 1) with a hint.
func Usagef(hint, format string, args ...any) error {
	return &ExitError{Code: ExitError1, Err: fmt.Errorf(format, args...), Hint: hint}
}

// Failf reports a failure (exit 1).
func Failf(format string, args ...any) error {
	return &ExitError{Code: ExitError1, Err: fmt.Errorf(format, args...)}
}

// Render prints err to w once, prefixed with the tool name, and returns the
// exit code it maps to.
func Render(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	code := ExitError1
	if errors.As(err, &ee) {
		code = ee.Code
		if ee.Err == nil {
			return code
		}
	}
	msg := strings.TrimPrefix(err.Error(), "gitwarrant: ")
	fmt.Fprintf(w, "gitwarrant: %s\n", msg)
	if ee != nil && ee.Hint != "" {
		fmt.Fprintf(w, "  hint: %s\n", ee.Hint)
	}
	return code
}
