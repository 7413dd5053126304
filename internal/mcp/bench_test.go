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
	f := benchFixture(b, recorded)
	defer f.srv.Close()
	srv := NewSDKServer(f.h.svc, Caller{Via: "mcp", Credential: "stdio"}, "bench", nil)
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Run(ctx, &StdioTransport{In: sr, Out: sw})
	cl := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	sess, err := cl.Connect(ctx, &sdk.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.Close()
	runConcurrent(b, clients, func() error {
		r, err := sess.CallTool(ctx, &sdk.CallToolParams{Name: "warrant_check", Arguments: check})
		if err == nil && r.IsError {
			err = io.ErrUnexpectedEOF
		}
		return err
	})
}

func BenchmarkRoundStdio1Unrecorded(b *testing.B)  { benchStdio(b, 1, false) }
func BenchmarkRoundStdio50Unrecorded(b *testing.B) { benchStdio(b, 50, false) }
func BenchmarkRoundStdio1Recorded(b *testing.B)    { benchStdio(b, 1, true) }
func BenchmarkRoundStdio50Recorded(b *testing.B)   { benchStdio(b, 50, true) }

// BenchmarkAppendLoop is the floor for recorded throughput: one process
// appending check entries in a loop (the writer lock serialises appends).
func BenchmarkAppendLoop(b *testing.B) {
	f := benchFixture(b, true)
	defer f.srv.Close()
	rec, err := record.Open(f.p)
	if err != nil {
		b.Fatal(err)
	}
	runConcurrent(b, 1, func() error {
		_, err := rec.Append(chain.Entry{Loop: "appeal", Kind: chain.KindCheck, Action: "draft", Target: "appeal letter", Verdict: "allow", Via: "bench"})
		return err
	})
}

var _ = strings.TrimSpace
