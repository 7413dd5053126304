package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTimeout bounds how long the stdio server waits, once its input has
// ended, for the answers still being computed.
const drainTimeout = 30 * time.Second

// maxLine bounds one stdio message (a line); longer lines are refused
// with an error answer and skipped.
const maxLine = 4 << 20

// StdioTransport is MCP over stdin and stdout, one JSON-RPC message per
// line (docs/mcp.md#transports). It is ours rather than the SDK's
// IOTransport for two reasons: a malformed line gets a JSON-RPC error
// answer and the server keeps serving (the SDK's decoder stops at the
// first bad byte), and every request read is answered before the end of
// input is reported, so a client that writes its requests and closes stdin
// still gets every answer, and no check is recorded without one.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
}

// Connect implements sdk.Transport.
func (t *StdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	c := &lineConn{out: t.Out, lines: make(chan lineOrErr), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]bool{}, idle: make(chan struct{}, 1)}
	go c.readLines(t.In)
	return c, nil
}

type lineOrErr struct {
	line []byte
	err  error
}

type lineConn struct {
	out       io.Writer
	wmu       sync.Mutex
	lines     chan lineOrErr
	closed    chan struct{}
	closeOnce sync.Once

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	idle    chan struct{}
}

func (c *lineConn) readLines(in io.Reader) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(r)
		select {
		case c.lines <- lineOrErr{line, err}:
		case <-c.closed:
			return
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return
		}
	}
}

var errLineTooLong = fmt.Errorf("message longer than %d bytes", maxLine)

// readLine reads one line; an over-long line is consumed and reported.
func readLine(r *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		} else {
			buf = buf[:0:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err == nil {
				return nil, errLineTooLong
			}
			return nil, err
		}
		switch {
		case err == nil:
			return buf, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(bytes.TrimSpace(buf)) > 0:
			return buf, nil // a last line without its newline
		default:
			return nil, err
		}
	}
}

// Read returns the next valid message. Malformed lines are answered with a
// JSON-RPC error and skipped.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var v lineOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case v = <-c.lines:
		}
		if errors.Is(v.err, errLineTooLong) {
			c.writeError(nil, -32600, "invalid request: "+v.err.Error())
			continue
		}
		if v.err != nil {
			c.wait(ctx)
			return nil, io.EOF
		}
		line := bytes.TrimSpace(v.line)
		if len(line) == 0 {
			continue
		}
		if line[0] == '[' {
			c.writeError(nil, -32600, "invalid request: batches are not supported")
			continue
		}
		m, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			code := -32700
			if json.Valid(line) {
				code = -32600
			}
			c.writeError(idOf(line), code, "invalid message: "+err.Error())
			continue
		}
		if r, ok := m.(*jsonrpc.Request); ok && r.ID.IsValid() {
			c.mu.Lock()
			c.pending[r.ID] = true
			c.mu.Unlock()
		}
		return m, nil
	}
}

func (c *lineConn) Write(ctx context.Context, m jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		return err
	}
	if err := c.writeLine(data); err != nil {
		return err
	}
	if r, ok := m.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.pending, r.ID)
		empty := len(c.pending) == 0
		c.mu.Unlock()
		if empty {
			select {
			case c.idle <- struct{}{}:
			default:
			}
		}
	}
	return nil
}

func (c *lineConn) writeLine(data []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(data, '\n'))
	return err
}

func (c *lineConn) writeError(id any, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	_ = c.writeLine(b)
}

// idOf recovers a request id from a line that failed to decode as a
// message, so the error answer can name it.
func idOf(line []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	switch id.(type) {
	case string, float64:
		return id
	}
	return nil
}

func (c *lineConn) wait(ctx context.Context) {
	deadline := time.After(drainTimeout)
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-c.idle:
		case <-deadline:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
