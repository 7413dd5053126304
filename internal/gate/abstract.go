package gate

import "github.com/gitwarrant/gitwarrant/internal/loops"

// Abstract reports a loop that is never routed to and whose ask and never
// entries screen every unpinned call (docs/threat-model.md#hard-stops,
// docs/loop-format.md#extends-and-abstract).
func Abstract(l *loops.Loop) bool {
	return l != nil && l.Abstract
}
