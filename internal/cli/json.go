package cli

import (
	"encoding/json"
	"io"
)

// writeJSON prints v as indented JSON. JSON output uses its own small,
// stable types (docs/design.md#code-shape, habit 6), never domain structs.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
