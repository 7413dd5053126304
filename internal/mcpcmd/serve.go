package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"github.com/gitwarrant/gitwarrant/internal/cli"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/mcp"
	"github.com/gitwarrant/gitwarrant/internal/record"
	"github.com/spf13/cobra"
)

type serveOptions struct {
	addr        string
	allowRemote bool
	limits      string
	idle        time.Duration
	detach      bool
	repoLock    bool
}

func newServeCmd(app *cli.App) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:7411] [--limits SPEC] [--detach] [--idle-exit DUR]",
		Short: "serve the agent tools over Streamable HTTP (/mcp) and JSON (/api/v1), and Claude Code's http hook",
		Long: `Serve the same tools as ` + "`gitwarrant mcp`" + ` over MCP's Streamable HTTP transport
at /mcp and as JSON under /api/v1/tools/<name> (POST), with the OpenAPI
document at /api/v1/openapi.json. Every request needs
"Authorization: Bearer <key>" with a key from ` + "`gitwarrant keys create`" + `.

Per key: 60 requests in any 60 s, 30 proposals in any hour, 20 open
proposals. --limits changes them, never to unlimited, e.g.
  --limits requests=600/60s,proposals=100/1h,open=50
A full limit answers 429 with Retry-After. Bodies over 262144 bytes get 413.
Only loopback addresses unless --allow-remote. SIGINT or SIGTERM stops the
server after the requests in flight finish.

POST /hooks/claude is Claude Code's http hook (docs/hook-protocol.md): it
answers exactly what ` + "`gitwarrant hook claude`" + ` prints for the same payload, with
the wiring in the query (?loop=L, ?default-loop=L, &strict=1,
&no-record=1), and takes only a key made with --scope hook, which no other
route takes, and only from this machine (a loopback peer, even with
--allow-remote). It has no rate limit: each request is a tool call waiting
for its answer.

--detach is what the SessionStart hook of ` + "`install --hook http`" + ` runs: it
starts the server in the background unless this repository's server
already listens at --addr (one per repository: it holds
.git/gitwarrant/serve.lock and writes its address to serve.json there, its
output to serve.log), and returns once it listens. --idle-exit stops the
server after that long without an authenticated request.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runServe(cmd.Context(), app, o) },
	}
	cmd.Flags().StringVar(&o.addr, "addr", "127.0.0.1:7411", "address to listen on")
	cmd.Flags().BoolVar(&o.allowRemote, "allow-remote", false, "allow a non-loopback address (agents on other machines)")
	cmd.Flags().StringVar(&o.limits, "limits", "", "per-key limits: requests=N/DUR,proposals=N/DUR,open=N")
	cmd.Flags().BoolVar(&o.detach, "detach", false, "start this repository's server in the background unless it already listens at --addr, and return once it does")
	cmd.Flags().DurationVar(&o.idle, "idle-exit", 0, "stop after this long without an authenticated request (0: never)")
	cmd.Flags().BoolVar(&o.repoLock, "repo-lock", false, "hold this repository's server lock and write its address to .git/gitwarrant/serve.json (what --detach starts)")
	_ = cmd.Flags().MarkHidden("repo-lock")
	return cmd
}

func runServe(ctx context.Context, app *cli.App, o serveOptions) error {
	lim, err := parseLimits(o.limits)
	if err != nil {
		return cli.Usagef("e.g. --limits requests=600/60s,proposals=100/1h,open=50", "--limits: %v", err)
	}
	if err := checkLoopback(o.addr, o.allowRemote); err != nil {
		return err
	}
	if o.idle < 0 {
		return cli.Usagef("e.g. --idle-exit 30m", "--idle-exit %s: must not be negative", o.idle)
	}
	if o.detach {
		return runDetach(app, o)
	}
	keys, err := cli.KeyStore(app)
	if err != nil {
		return err
	}
	var stateDir string
	if o.repoLock {
		if stateDir, err = cli.StateDir(app); err != nil {
			return err
		}
		lock, err := tryLock(filepath.Join(stateDir, serveLockFile))
		if errors.Is(err, errLockHeld) {
			_, err = alreadyServing(stateDir, o.addr)
			return err // nil: the repository's server already listens there
		}
		if err != nil {
			return cli.Failf("%v", err)
		}
		defer lock.Close()
		defer removeServeState(stateDir)
	}
	// The http hook records through a journal: its answer waits for the
	// entry's line, not its commit (docs/record.md#the-journal). What is
	// left is committed before the process exits.
	journal := record.NewJournal(app.IO.Err)
	journal.Now = app.Now
	defer func() {
		if err := journal.Close(); err != nil {
			fmt.Fprintf(app.IO.Err, "gitwarrant: %v (the next command that reads the record commits it)\n", err)
		}
	}()
	h, err := mcp.NewHandler(mcpService(app), mcp.HTTPOptions{Keys: keys, Limits: lim, Now: app.Now, Version: cli.Version, ClaudeHook: claudeHook(app, app.IO.Err, journal)})
	if err != nil {
		return cli.Usagef("see `gitwarrant serve --help`", "%v", err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitError1, Err: err, Hint: "choose another --addr"}
	}
	if o.repoLock {
		st := serveState{Addr: o.addr, PID: os.Getpid(), Version: cli.Version, Started: app.Now().UTC()}
		if err := writeServeState(stateDir, st); err != nil {
			ln.Close()
			return cli.Failf("%v", err)
		}
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if o.idle > 0 || o.repoLock {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go exitWhen(ctx, cancel, h, o.idle, stateDir)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	fmt.Fprintf(app.IO.Err, "gitwarrant: serving http://%s/mcp and /api/v1 (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx) // waits for requests in flight: no entry is lost
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	fmt.Fprintln(app.IO.Err, "gitwarrant: stopped")
	return err
}

// exitWhen cancels the server's context once it has had no authenticated
// request for idle (0: never), or — for the repository's server (stateDir
// set) — once serve.json no longer names this process: the repository was
// removed, or a person deleted the file to stop it.
func exitWhen(ctx context.Context, cancel context.CancelFunc, h *mcp.Handler, idle time.Duration, stateDir string) {
	tick := time.Second
	if idle > 0 {
		tick = max(min(idle/4, time.Second), time.Millisecond)
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if idle > 0 && time.Since(h.LastRequest()) >= idle {
				cancel()
				return
			}
			if stateDir != "" {
				if st, err := readServeState(stateDir); err != nil || st.PID != os.Getpid() {
					cancel()
					return
				}
			}
		}
	}
}

func checkLoopback(addr string, allow bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return cli.Usagef("e.g. --addr 127.0.0.1:7411", "--addr %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip != nil && ip.IsLoopback() {
		return nil
	}
	if allow {
		return nil
	}
	return cli.Usagef("pass --allow-remote to listen beyond this machine (agents then need keys over the network: put TLS in front)", "--addr %q is not a loopback address", addr)
}

// parseLimits reads "requests=N/DUR,proposals=N/DUR,open=N" over the
// defaults. Zero and negative values are refused: no limit can be off.
func parseLimits(s string) (mcp.Limits, error) {
	l := mcp.DefaultLimits()
	if strings.TrimSpace(s) == "" {
		return l, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return l, fmt.Errorf("%q: want key=value", part)
		}
		n, dur, hasDur := strings.Cut(v, "/")
		num, err := strconv.Atoi(n)
		if err != nil || num < 1 {
			return l, fmt.Errorf("%s: %q is not a whole number of at least 1", k, n)
		}
		var d time.Duration
		if hasDur {
			if d, err = time.ParseDuration(dur); err != nil || d <= 0 {
				return l, fmt.Errorf("%s: %q is not a positive duration (e.g. 60s, 1h)", k, dur)
			}
		}
		switch {
		case k == "requests" && hasDur:
			l.Requests, l.RequestWindow = num, d
		case k == "proposals" && hasDur:
			l.Proposals, l.ProposalWindow = num, d
		case k == "open" && !hasDur:
			l.OpenProposals = num
		default:
			return l, fmt.Errorf("unknown or malformed %q (want requests=N/DUR, proposals=N/DUR, open=N)", part)
		}
	}
	return l, l.Validate()
}
