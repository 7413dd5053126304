// Command mkhonest writes the fixtures and hook payloads of the honest
// corpus for bench/honest.sh (eval.WriteHonestBench):
//
//	mkhonest DIR
package main

import (
	"fmt"
	"os"

	"github.com/gitwarrant/gitwarrant/eval"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkhonest DIR")
		os.Exit(2)
	}
	if err := eval.WriteHonestBench(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "mkhonest: %v\n", err)
		os.Exit(1)
	}
}
