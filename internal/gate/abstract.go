package gate

import "github.com/gitwarrant/gitwarrant/internal/loops"

// Abstract reports a loop that is never routed to and whose ask and never
// entries screen every unpinned call (docs/threat-model.md#hard-stops).
// The loop format does not mark abstract loops yet, so none is: every
// loop's never entries still screen every unpinned call.
func Abstract(l *loops.Loop) bool {
	return false
}
