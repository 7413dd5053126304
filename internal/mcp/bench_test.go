package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/agentkeys"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/record"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The warrant_check round trip, over stdio and over HTTP, at 1 and 50
// concurrent clients, unrecorded (the check without its append) and
// recorded, beside a bare HTTP echo handler on the same server. Each
// reports p50 and p95 per call (docs/mcp.md#transports).
//
//	go test -run '^$' -bench 'Round|Echo|AppendLoop' -benchtime 2000x ./internal/mcp/

func benchFixture(b *testing.B, recorded bool) *fixture {
	lim := DefaultLimits()
	lim.Requests = 1 << 30
	f := newFixture(&testing.T{}, lim)
	if !recorded {
		f.h.svc.b.Check = func(ctx context.Context, p *project.Project, req CheckRequest) (CheckResult, error) {
			return f.checkOnly(p, req)
		}
	}
	return f
}

// checkOnly is fixture.check without the append.
func (f *fixture) checkOnly(p *project.Project, req CheckRequest) (CheckResult, error) {
	r, err := f.checkNoRecord(p, req)
	return r, err
}

func runConcurrent(b *testing.B, clients int, call func() error) {
	var mu sync.Mutex
	durs := make([]time.Duration, 0, b.N)
	var wg sync.WaitGroup
	per := b.N / clients
	if per == 0 {
		per = 1
	}
	b.ResetTimer()
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]time.Duration, 0, per)
			for i := 0; i < per; i++ {
				t0 := time.Now()
				if err := call(); err != nil {
					b.Error(err)
					return
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			durs = append(durs, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	if len(durs) > 0 {
		b.ReportMetric(float64(durs[len(durs)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(durs[len(durs)*95/100].Microseconds()), "p95-µs")
		b.ReportMetric(float64(len(durs))/elapsed.Seconds(), "calls/s")
	}
}

func benchHTTP(b *testing.B, clients int, recorded bool, path string) {
	f := benchFixture(b, recorded)
	defer f.srv.Close()
	key := f.key("bench", agentkeys.ScopeRead)
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) { io.Copy(w, r.Body) })
	mux.Handle("/", f.h)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	body, _ := json.Marshal(check)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	runConcurrent(b, clients, func() error {
		req, _ := http.NewRequest("POST", srv.URL+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil
	})
}

func BenchmarkRoundHTTP1Unrecorded(b *testing.B) {
	benchHTTP(b, 1, false, "/api/v1/tools/warrant_check")
}
func BenchmarkRoundHTTP50Unrecorded(b *testing.B) {
	benchHTTP(b, 50, false, "/api/v1/tools/warrant_check")
}
func BenchmarkRoundHTTP1Recorded(b *testing.B) { benchHTTP(b, 1, true, "/api/v1/tools/warrant_check") }
func BenchmarkRoundHTTP50Recorded(b *testing.B) {
	benchHTTP(b, 50, true, "/api/v1/tools/warrant_check")
}
func BenchmarkEchoHTTP1(b *testing.B)  { benchHTTP(b, 1, false, "/echo") }
func BenchmarkEchoHTTP50(b *testing.B) { benchHTTP(b, 50, false, "/echo") }

func benchStdio(b *testing.B, clients int, recorded bool) {
	call, done := stdioCaller(b, recorded)
	defer done()
	runConcurrent(b, clients, call)
}

// stdioCaller starts the stdio server on pipes, connects the SDK's client
// and returns one warrant_check call.
func stdioCaller(b *testing.B, recorded bool) (func() error, func()) {
	f := benchFixture(b, recorded)
	srv := NewSDKServer(f.h.svc, Caller{Via: "mcp", Credential: "stdio"}, "bench", nil)
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	ctx, cancel := context.WithCancel(context.Background())
	go srv.Run(ctx, &StdioTransport{In: sr, Out: sw})
	cl := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	sess, err := cl.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	call := func() error {
		r, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: "warrant_check", Arguments: check})
		if err == nil && r.IsError {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return call, func() { sess.Close(); cancel(); f.srv.Close() }
}

func BenchmarkRoundStdio1Unrecorded(b *testing.B)  { benchStdio(b, 1, false) }
func BenchmarkRoundStdio50Unrecorded(b *testing.B) { benchStdio(b, 50, false) }
func BenchmarkRoundStdio1Recorded(b *testing.B)    { benchStdio(b, 1, true) }
func BenchmarkRoundStdio50Recorded(b *testing.B)   { benchStdio(b, 50, true) }

// BenchmarkAppendLoop is the floor for recorded throughput: one process
// appending check entries in a loop (the writer lock serialises appends).
func BenchmarkAppendLoop(b *testing.B) {
	call, done := appender(b)
	defer done()
	runConcurrent(b, 1, call)
}

func appender(b *testing.B) (func() error, func()) {
	f := benchFixture(b, true)
	rec, err := record.Open(f.p)
	if err != nil {
		b.Fatal(err)
	}
	return func() error {
		_, err := rec.Append(chain.Entry{Loop: "appeal", Kind: chain.KindCheck, Action: "draft", Target: "appeal letter", Verdict: "allow", Via: "bench"})
		return err
	}, f.srv.Close
}

// BenchmarkRecordedStdio50VsAppendLoop sets recorded warrant_check
// throughput at 50 concurrent stdio calls against one process appending
// in a loop, in alternating rounds of 400 calls each (one round per
// iteration: -benchtime 7x), so both see the same load; it reports the
// median of each and their ratio (docs/mcp.md#cost).
func BenchmarkRecordedStdio50VsAppendLoop(b *testing.B) {
	stdio, done1 := stdioCaller(b, true)
	defer done1()
	appendOne, done2 := appender(b)
	defer done2()
	var s50, loop []float64
	round := 0
	for b.Loop() {
		a := func() { s50 = append(s50, rate(b, 50, 400, stdio)) }
		l := func() { loop = append(loop, rate(b, 1, 400, appendOne)) }
		if round%2 == 0 {
			a()
			l()
		} else {
			l()
			a()
		}
		round++
	}
	m50, mloop := median(s50), median(loop)
	b.ReportMetric(m50, "stdio50-calls/s")
	b.ReportMetric(mloop, "append-calls/s")
	b.ReportMetric(m50/mloop, "ratio")
}

// rate runs n calls over clients goroutines and returns calls per second.
func rate(b *testing.B, clients, n int, call func() error) float64 {
	var wg sync.WaitGroup
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < n; i += clients {
				if err := call(); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

var _ = strings.TrimSpace
