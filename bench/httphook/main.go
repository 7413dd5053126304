// Command httphook measures Claude Code's http hook at the client (issue
// 25, "Performance"): it posts one payload to a warm `gitwarrant serve`
// over one kept-alive connection, as Claude Code's client does, and times
// `git rev-parse HEAD` in the same run for scale. It prints p50, p99 and
// the mean of each, in milliseconds.
//
// Each "@N@" in the payload becomes the post's number, so every post has
// its own tool_use_id as Claude Code's have (the server then creates one
// PostToolUse marker per post instead of rewriting the same one).
//
// With -base-url, the posts also go to a second server (the build before
// a change, in its own repository, whose payload names that repository),
// one to each in turn on its own connection, so both see the same load;
// the ratio of their p50s is printed.
//
// Usage: httphook -url URL -key KEY -payload FILE [-n 2000] [-git-n 200]
// [-base-url URL -base-key KEY -base-payload FILE]
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
	"strconv"
	"time"
)

func main() {
	url := flag.String("url", "", "the hook's URL")
	key := flag.String("key", "", "the hook key")
	baseURL := flag.String("base-url", "", "a second server's hook URL, posted to in turn with -url (the build before)")
	baseKey := flag.String("base-key", "", "the second server's hook key")
	basePayload := flag.String("base-payload", "", "the payload posted to -base-url (default: -payload)")
	payload := flag.String("payload", "", "a file holding one PreToolUse payload (@N@ becomes the post's number)")
	n := flag.Int("n", 2000, "posts to time")
	gitN := flag.Int("git-n", 200, "runs of git rev-parse HEAD to time")
	warm := flag.Int("warmup", 50, "untimed posts first")
	flag.Parse()
	body, err := os.ReadFile(*payload)
	if err != nil {
		fail(err)
	}
	baseBody := body
	if *basePayload != "" {
		if baseBody, err = os.ReadFile(*basePayload); err != nil {
			fail(err)
		}
	}
	seq := 0
	poster := func(url, key string, body []byte) func() []byte {
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
		return func() []byte {
			seq++
			b := bytes.ReplaceAll(body, []byte("@N@"), []byte(strconv.Itoa(seq)))
			req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+key)
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
	}
	post := poster(*url, *key, body)
	fmt.Fprintf(os.Stderr, "answer: %s\n", post())
	var base func() []byte
	if *baseURL != "" {
		base = poster(*baseURL, *baseKey, baseBody)
		if a, b := post(), base(); !bytes.Equal(a, b) {
			fail(fmt.Errorf("the two servers answer differently:\n%s\n%s", a, b))
		}
	}
	for range *warm {
		post()
		if base != nil {
			base()
		}
	}
	hook := make([]time.Duration, 0, *n)
	var baseD []time.Duration
	for range *n {
		hook = append(hook, timed(func() { post() }))
		if base != nil {
			baseD = append(baseD, timed(func() { base() }))
		}
	}
	git := make([]time.Duration, 0, *gitN)
	for range *gitN {
		git = append(git, timed(func() {
			if err := exec.Command("git", "rev-parse", "HEAD").Run(); err != nil {
				fail(err)
			}
		}))
	}
	for _, d := range [][]time.Duration{hook, baseD, git} {
		slices.Sort(d)
	}
	report("http hook", hook)
	if base != nil {
		report("http hook, base", baseD)
	}
	report("git rev-parse HEAD", git)
	if base != nil {
		fmt.Printf("ratio p50: %.3f× base, p99: %.3f× base\n", float64(pct(hook, 50))/float64(pct(baseD, 50)), float64(pct(hook, 99))/float64(pct(baseD, 99)))
	}
	fmt.Printf("ratio p50: %.3f× git rev-parse HEAD\n", float64(pct(hook, 50))/float64(pct(git, 50)))
}

func timed(f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
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
