// Command interleave times commands against each other on a noisy machine.
// hyperfine runs all of one command's runs, then the next command's: when
// another job starts in between, the comparison measures the load, not the
// commands. interleave runs them round-robin — one run of each, in a new
// order every round — so every command sees the same load, and reports the
// median wall time and the median CPU time (user + system of the child,
// from rusage, which waiting for a CPU does not inflate) with their ratios
// to a reference command, net of a floor command (the shell's own cost).
// On Linux the CPU time includes the processes a command leaves behind
// without waiting for them (interleave adopts and reaps them), and a
// process that outlives its command by more than a second is reported.
//
//	interleave [-runs N] [-warmup W] [-stdin FILE] [-ref NAME] [-floor NAME] [-against NAME:REF,…] NAME=COMMAND…
//
// -against gives a command a reference of its own (its ratio cells then
// name it), for two comparisons measured in the same rounds. -prepare
// NAME=COMMAND (repeatable) runs COMMAND untimed right before each run of
// NAME, as hyperfine's --prepare does (a file to commit, a check to carry).
//
// Each COMMAND runs under `sh -c`, with stdin from FILE (or /dev/null).
// Output is a Markdown table; -json FILE also writes the medians.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

type cmd struct {
	Name string
	Line string
	prep string
	wall []float64 // ms
	cpu  []float64 // ms
	// WallMS and CPUMS are the medians, for -json.
	WallMS float64 `json:"wall_ms"`
	CPUMS  float64 `json:"cpu_ms"`
}

func main() {
	runs := flag.Int("runs", 30, "timed rounds")
	warmup := flag.Int("warmup", 3, "untimed rounds first")
	stdin := flag.String("stdin", "/dev/null", "file every command reads on stdin")
	ref := flag.String("ref", "", "name of the reference command (default: the first after the floor)")
	floor := flag.String("floor", "", "name of the floor command subtracted from every other (e.g. sh -c ':')")
	jsonOut := flag.String("json", "", "also write the medians as JSON to this file")
	against := flag.String("against", "", "NAME:REF pairs, comma-separated: the reference of command NAME is REF")
	var prepares []string
	flag.Func("prepare", "NAME=COMMAND: run COMMAND untimed before each run of NAME (repeatable)", func(v string) error {
		prepares = append(prepares, v)
		return nil
	})
	flag.Parse()
	adoptOrphans()
	var cmds []*cmd
	for _, a := range flag.Args() {
		name, line, ok := strings.Cut(a, "=")
		if !ok || name == "" || line == "" {
			fail("argument %q is not NAME=COMMAND", a)
		}
		cmds = append(cmds, &cmd{Name: name, Line: line})
	}
	if len(cmds) < 2 {
		fail("give at least two NAME=COMMAND arguments")
	}
	find := func(name string) *cmd {
		for _, c := range cmds {
			if c.Name == name {
				return c
			}
		}
		if name != "" {
			fail("no command named %q", name)
		}
		return nil
	}
	fl := find(*floor)
	rc := find(*ref)
	if rc == nil {
		for _, c := range cmds {
			if c != fl {
				rc = c
				break
			}
		}
	}
	for _, p := range prepares {
		name, line, ok := strings.Cut(p, "=")
		if !ok || find(name) == nil || line == "" {
			fail("-prepare %q is not NAME=COMMAND for a named command", p)
		}
		find(name).prep = line
	}
	refOf := map[*cmd]*cmd{}
	for _, pair := range strings.Split(*against, ",") {
		if pair == "" {
			continue
		}
		name, r, ok := strings.Cut(pair, ":")
		if !ok || find(name) == nil || find(r) == nil {
			fail("-against %q is not NAME:REF with both named commands", pair)
		}
		refOf[find(name)] = find(r)
	}
	order := make([]int, len(cmds))
	for i := range order {
		order[i] = i
	}
	for round := 0; round < *warmup+*runs; round++ {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			if cmds[i].prep != "" {
				run(cmds[i].prep, "/dev/null")
			}
			wall, cpu := run(cmds[i].Line, *stdin)
			if round >= *warmup {
				cmds[i].wall = append(cmds[i].wall, wall)
				cmds[i].cpu = append(cmds[i].cpu, cpu)
			}
		}
	}
	for _, c := range cmds {
		c.WallMS, c.CPUMS = median(c.wall), median(c.cpu)
	}
	net := func(c *cmd, wall bool) float64 {
		v := c.CPUMS
		if wall {
			v = c.WallMS
		}
		if fl != nil && c != fl {
			if wall {
				v -= fl.WallMS
			} else {
				v -= fl.CPUMS
			}
		}
		return v
	}
	netWord := ""
	if fl != nil {
		netWord = " net of " + fl.Name
	}
	fmt.Printf("\n%d interleaved rounds (after %d warm-up); medians%s\n\n", *runs, *warmup, netWord)
	fmt.Printf("| command | wall ms | CPU ms | wall × %s | CPU × %s |\n|---|---:|---:|---:|---:|\n", rc.Name, rc.Name)
	for _, c := range cmds {
		if c == fl {
			fmt.Printf("| %s (floor) | %.2f | %.2f | | |\n", c.Name, c.WallMS, c.CPUMS)
			continue
		}
		r, which := rc, ""
		if o, ok := refOf[c]; ok {
			r, which = o, " "+o.Name
		}
		fmt.Printf("| %s | %.2f | %.2f | %.2f×%s | %.2f×%s |\n", c.Name, net(c, true), net(c, false),
			net(c, true)/net(r, true), which, net(c, false)/net(r, false), which)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(cmds, "", "  ")
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			fail("%v", err)
		}
	}
}

// run times one `sh -c line` with stdin from file: wall ms, child CPU ms.
func run(line, stdin string) (float64, float64) {
	in, err := os.Open(stdin)
	if err != nil {
		fail("%v", err)
	}
	defer in.Close()
	c := exec.Command("sh", "-c", line)
	c.Stdin = in
	c.Stderr = os.Stderr
	start := time.Now()
	if err := c.Run(); err != nil {
		fail("%s: %v", line, err)
	}
	ended := time.Now()
	wall := ended.Sub(start)
	orphans, outlived := reapOrphans(ended)
	if outlived > time.Second {
		fmt.Fprintf(os.Stderr, "interleave: %s: a process it left behind outlived it by %v\n", line, outlived.Round(time.Millisecond))
	}
	cpu := c.ProcessState.UserTime() + c.ProcessState.SystemTime() + orphans
	return ms(wall), ms(cpu)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "interleave: "+format+"\n", a...)
	os.Exit(2)
}
