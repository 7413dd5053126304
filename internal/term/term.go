// Package term owns the streams: which are terminals, whether colour is on,
// and whether prompting is allowed (docs/design.md#code-shape: one object owns the streams).
package term

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Streams are the process's standard streams with their terminal facts.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer

	InTTY  bool
	OutTTY bool
	ErrTTY bool

	// NoColor is set from NO_COLOR (any non-empty value) or --no-color.
	NoColor bool
}

// System returns the real standard streams.
func System(getenv func(string) string) *Streams {
	return &Streams{
		In: os.Stdin, Out: os.Stdout, Err: os.Stderr,
		InTTY:   isTerminal(os.Stdin),
		OutTTY:  isTerminal(os.Stdout),
		ErrTTY:  isTerminal(os.Stderr),
		NoColor: getenv("NO_COLOR") != "" || getenv("TERM") == "dumb",
	}
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// CanPrompt reports whether a question may be asked: someone is typing on
// standard input. Questions go to stderr, so stdout stays clean for results.
func (s *Streams) CanPrompt() bool { return s.InTTY }

// Style returns a colouriser for stdout.
func (s *Streams) Style() Style { return Style{on: s.OutTTY && !s.NoColor} }

// ErrStyle returns a colouriser for stderr.
func (s *Streams) ErrStyle() Style { return Style{on: s.ErrTTY && !s.NoColor} }

// Style wraps text in ANSI colours when enabled.
type Style struct{ on bool }

func (c Style) wrap(code, s string) string {
	if !c.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

// Bold text.
func (c Style) Bold(s string) string { return c.wrap("1", s) }

// Dim text.
func (c Style) Dim(s string) string { return c.wrap("2", s) }

// Red text.
func (c Style) Red(s string) string { return c.wrap("31", s) }

// Green text.
func (c Style) Green(s string) string { return c.wrap("32", s) }

// Yellow text.
func (c Style) Yellow(s string) string { return c.wrap("33", s) }

// Cyan text.
func (c Style) Cyan(s string) string { return c.wrap("36", s) }
