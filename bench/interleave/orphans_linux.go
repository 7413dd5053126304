package main

import (
	"errors"
	"syscall"
	"time"
)

// adoptOrphans makes interleave the reaper of every process its commands
// leave behind (PR_SET_CHILD_SUBREAPER), so reapOrphans can count their
// CPU time: a process a command starts in the background and never waits
// for (a watchdog's sleep) is the command's cost too, but its rusage
// reaches no one who waits for the command.
func adoptOrphans() {
	const prSetChildSubreaper = 36
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		fail("PR_SET_CHILD_SUBREAPER: %v", e)
	}
}

// reapOrphans waits for every process the last command left behind and
// returns their CPU time (user + system), and how long the last of them
// outlived the command.
func reapOrphans(ended time.Time) (cpu, outlived time.Duration) {
	for {
		var ru syscall.Rusage
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(-1, &ws, 0, &ru)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil { // ECHILD: none left
			return cpu, outlived
		}
		cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		outlived = time.Since(ended)
	}
}
