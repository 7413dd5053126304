package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
)

// MCPBinary is the program that serves the agent tools: `gitwarrant mcp`
// and `gitwarrant serve` run it. It is a binary of its own because the MCP
// SDK's package initialisation cost every gitwarrant command — the Claude
// Code hook before each tool call among them — about 2 ms (docs/mcp.md#cost).
const MCPBinary = "gitwarrant-mcp"

func newMCPCmd(app *App) *cobra.Command {
	return mcpExecCmd(app, "mcp [--dir PATH]", "serve the agent tools over MCP on stdio")
}

func newServeCmd(app *App) *cobra.Command {
	return mcpExecCmd(app, "serve [--addr HOST:PORT] [--dir PATH] …", "serve the agent tools over Streamable HTTP (/mcp) and JSON (/api/v1), and Claude Code's http hook")
}

// mcpExecCmd is `gitwarrant mcp` or `gitwarrant serve` in the gitwarrant
// binary: it runs the same command of gitwarrant-mcp (found beside this
// binary, else on PATH) with the same arguments, stdio and exit status.
// gitwarrant-mcp holds the real commands and no others (ServerMain).
func mcpExecCmd(app *App, use, short string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long: short + `.

This runs ` + MCPBinary + `, the MCP server, which is installed beside
gitwarrant (` + "`go install github.com/gitwarrant/gitwarrant/cmd/...`" + `); ` + "`" + MCPBinary + ` <command> --help` + "`" + `
describes the options. See docs/mcp.md.`,
		DisableFlagParsing: true, // every flag is the server's
	}
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
			if _, err := findMCPBinary(app); err != nil {
				return c.Help()
			}
			// The server's help names its own binary: say that this
			// command is it, with the same arguments.
			fmt.Fprintf(app.IO.Out, "gitwarrant %s runs %s %s with the same arguments:\n\n", c.Name(), MCPBinary, c.Name())
		}
		return runMCPBinary(app, c.Name(), args)
	}
	return cmd
}

// findMCPBinary looks for gitwarrant-mcp beside the running binary (as
// invoked, then with links resolved), then on PATH.
func findMCPBinary(app *App) (string, error) {
	p, where := findBeside(app, MCPBinary)
	if p == "" {
		return "", &ExitError{Code: ExitError1,
			Err:  fmt.Errorf("%s, the MCP server, is not installed (looked %s and on PATH)", MCPBinary, where),
			Hint: "install it beside gitwarrant: `go install github.com/gitwarrant/gitwarrant/cmd/...` (or `go build -o <dir> ./cmd/...` in a checkout)"}
	}
	return p, nil
}

// findBeside looks for the program name beside the running binary (as
// invoked, then with links resolved), then on PATH: its path, or "" and
// where it looked first.
func findBeside(app *App, name string) (path, where string) {
	var dirs []string
	if app.Self != "" {
		dirs = append(dirs, filepath.Dir(app.Self))
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if isExecutableFile(p) {
			return p, ""
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, ""
	}
	where = "beside gitwarrant"
	if len(dirs) > 0 {
		where = "in " + dirs[0]
	}
	return "", where
}

// errNoReplace: this process could not become gitwarrant-mcp.
var errNoReplace = errors.New("the process cannot be replaced here")

// runMCPBinary runs gitwarrant-mcp <name> args with this process's stdio
// and environment: where it can, by becoming it (replaceWithMCP), else as
// a child whose SIGINT and SIGTERM it passes on and whose exit it takes.
func runMCPBinary(app *App, name string, args []string) error {
	bin, err := findMCPBinary(app)
	if err != nil {
		return err
	}
	argv := []string{name}
	if app.DirFlag != "" {
		argv = append(argv, "--dir", app.DirFlag)
	}
	argv = append(argv, args...)
	if err := replaceWithMCP(app, bin, argv); !errors.Is(err, errNoReplace) {
		return Failf("starting %s: %v", bin, err)
	}
	cmd := exec.Command(bin, argv...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = app.IO.In, app.IO.Out, app.IO.Err
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return Failf("starting %s: %v", bin, err)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return Silent(128 + int(ws.Signal())) // as a shell reports it
		}
		return Silent(ee.ExitCode()) // the server printed why
	}
	if err != nil {
		return Failf("%s %s: %v", MCPBinary, name, err)
	}
	return nil
}
