package cli

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"
)

// The --json output of every command goes through this file
// (docs/design.md#json-output): one flag, one encoder setup, one exit
// convention. Each command declares its own small, stable output types
// (docs/design.md#code-shape, habit 6), never domain structs.

// jsonFlagUsage is the help text of every --json flag; a test holds every
// command to it, so a --json added without these helpers is caught.
const jsonFlagUsage = "print the result as JSON (see docs/design.md#json-output)"

// jsonFlag adds --json to cmd.
func jsonFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "json", false, jsonFlagUsage)
}

// newJSONEncoder is the one encoder setup: UTF-8 as is (no \u003c for <).
func newJSONEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// writeJSON prints v, a JSON object, as one indented document and a
// newline.
func writeJSON(w io.Writer, v any) error {
	enc := newJSONEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// emitJSON prints v as the command's result and returns what sets the
// exit status: nil for 0, else a silent exit error (the document already
// says everything, e.g. its "exit" field or its findings).
func emitJSON(app *App, v any, code int) error {
	if err := writeJSON(app.IO.Out, v); err != nil {
		return err
	}
	if code == ExitOK {
		return nil
	}
	return Silent(code)
}

// jsonLines prints a stream: one compact JSON object per line (JSON
// Lines), for output that may be long and is read line by line
// (`record log --json`).
type jsonLines struct{ enc *json.Encoder }

func newJSONLines(w io.Writer) *jsonLines { return &jsonLines{enc: newJSONEncoder(w)} }

// Write prints v on one line.
func (j *jsonLines) Write(v any) error { return j.enc.Encode(v) }
