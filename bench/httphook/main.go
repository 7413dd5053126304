// Command httphook measures Claude Code's http hook at the client (issue
// 25, "Performance"): it posts one payload to a warm `gitwarrant serve`
// over one kept-alive connection, as Claude Code's client does, and times
// `git rev-parse HEAD` in the same run for scale. It prints p50, p99 and
// the mean of each, in milliseconds.
//
// Usage: httphook -url URL -key KEY -payload FILE [-n 2000] [-git-n 200]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	url := flag.String("url", "", "the hook's URL")
	key := flag.String("key", "", "the hook key")
	payload := flag.String("payload", "", "a file holding one PreToolUse payload")
	n := flag.Int("n", 2000, "posts to time")
	gitN := flag.Int("git-n", 200, "runs of git rev-parse HEAD to time")
	warm := flag.Int("warmup", 50, "untimed posts first")
	flag.Parse()
	body, err := os.ReadFile(*payload)
	if err != nil {
		fail(err)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	post := func() []byte {
		req, _ := http.NewRequest(http.MethodPost, *url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+*key)
		resp, err := client.Do(req)
		if err != nil {
			fail(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			fail(fmt.Errorf("%s: %s", resp.Status, out))
		}
		return out
	}
	fmt.Fprintf(os.Stderr, "answer: %s\n", post())
	for range *warm {
		post()
	}
	hook := timeN(*n, func() { post() })
	git := timeN(*gitN, func() {
		if err := exec.Command("git", "rev-parse", "HEAD").Run(); err != nil {
			fail(err)
		}
	})
	report("http hook", hook)
	report("git rev-parse HEAD", git)
	fmt.Printf("ratio p50: %.3f× git rev-parse HEAD\n", float64(pct(hook, 50))/float64(pct(git, 50)))
}

func timeN(n int, f func()) []time.Duration {
	d := make([]time.Duration, n)
	for i := range d {
		t := time.Now()
		f()
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	return d
}

func pct(d []time.Duration, p int) time.Duration { return d[(len(d)-1)*p/100] }

func report(name string, d []time.Duration) {
	var sum time.Duration
	for _, x := range d {
		sum += x
	}
	ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
	fmt.Printf("%-20s n=%-5d p50 %.3f ms  p99 %.3f ms  mean %.3f ms  max %.3f ms\n", name, len(d), ms(pct(d, 50)), ms(pct(d, 99)), ms(sum/time.Duration(len(d))), ms(d[len(d)-1]))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "httphook:", err)
	os.Exit(1)
}
