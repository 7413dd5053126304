//go:build !linux

package main

import "time"

// adoptOrphans does nothing here: only Linux lets interleave adopt the
// processes its commands leave behind, so their CPU time is not counted.
func adoptOrphans() {}

// reapOrphans counts nothing where adoptOrphans cannot adopt.
func reapOrphans(time.Time) (cpu, outlived time.Duration) { return 0, 0 }
