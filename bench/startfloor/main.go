// Command startfloor measures what a smaller hook binary could save
// (docs/performance.md#start-up). It links only what the hooks need — the
// gate, the parse cache and the record — and none of the command tree:
//
//	startfloor                 exit at once: Go's start-up and the
//	                           initialisation of those packages alone
//	startfloor claude LOOP     the pinned PreToolUse decision of `gitwarrant
//	                           hook claude --loop LOOP --no-record` (stdin)
//	startfloor pre-commit      `gitwarrant hook pre-commit`'s work
//
// It is a measuring stick, not a hook: no flags, no help, errors printed
// bare.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/gate"
	"github.com/gitwarrant/gitwarrant/internal/hook"
	"github.com/gitwarrant/gitwarrant/internal/parsecache"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/pflag"
)

func main() {
	if len(os.Args) < 2 {
		return
	}
	cwd, _ := os.Getwd()
	switch os.Args[1] {
	case "claude":
		_ = pflag.NewFlagSet("claude", pflag.ContinueOnError) // the flag parser the hook links
		data, err := io.ReadAll(os.Stdin)
		env := gate.Env{Getenv: os.Getenv, Cwd: cwd, Now: time.Now, Err: os.Stderr, Allower: gate.TypedAllower,
			ParseStore: parsecache.Open}
		o := gate.Options{Loop: os.Args[2], LoopSet: true, NoRecord: true, Via: "hook"}
		a := gate.Decide(context.Background(), env, o, data, err)
		_, _ = os.Stdout.Write(hook.DecisionContext(string(a.Verdict), a.Reason, a.Context))
	case "pre-commit":
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(64 << 20)
		p, err := project.Find(project.Options{Env: os.Getenv, Cwd: cwd})
		if err != nil {
			return
		}
		r, err := record.Open(p)
		if err == nil {
			_, err = r.PreCommit()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "startfloor: unknown mode %q\n", os.Args[1])
		os.Exit(2)
	}
}
