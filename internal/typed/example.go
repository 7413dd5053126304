package typed

import (
	"path/filepath"

	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// ExampleInput turns an example into the tool_input of its call, with a
// relative path made absolute under root.
func ExampleInput(e loops.Example, root string) map[string]any {
	in := e.Input()
	for _, k := range []string{"file_path", "notebook_path", "path"} {
		if s, ok := in[k].(string); ok && !filepath.IsAbs(s) && s != "~" && (len(s) < 2 || s[:2] != "~/") {
			in[k] = filepath.Join(root, s)
		}
	}
	return in
}

// DecideExample decides an example with the loop's typed entries alone
// (no self-protection, no natural-language screening: the gate adds
// those).
func DecideExample(l *loops.Loop, e loops.Example, env Env) Decision {
	return Decide(l.Warrant.Typed(), Units(e.Tool, ExampleInput(e, env.Root), env))
}
