package install

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPostSpeaksToGoServer drives the doctor's HTTP/1.0 client against
// net/http's server, as `gitwarrant serve` is one: the key reaches the
// handler, statuses come back, and a body too large for the server's
// buffer — which HTTP/1.1 would chunk — arrives whole.
func TestPostSpeaksToGoServer(t *testing.T) {
	big := strings.Repeat("x", 64<<10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if r.Header.Get("Authorization") != "Bearer gwk_right" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("big") == "1" {
			_, _ = io.WriteString(w, big) // no Content-Length: too large to buffer
			return
		}
		_, _ = w.Write(append([]byte("echo:"+r.URL.RawQuery+":"), body...))
	}))
	defer srv.Close()
	for _, key := range []string{"", "gwk_wrong"} {
		st, _, err := post(srv.URL+"/hooks/claude?loop=a", key, []byte(`{}`))
		if err != nil || st != http.StatusUnauthorized {
			t.Fatalf("key %q: %d %v, want 401", key, st, err)
		}
	}
	st, got, err := post(srv.URL+"/hooks/claude?loop=a&no-record=1", "gwk_right", []byte(`{"a":1}`))
	if err != nil || st != http.StatusOK || string(got) != `echo:loop=a&no-record=1:{"a":1}` {
		t.Fatalf("got %d %q %v", st, got, err)
	}
	st, got, err = post(srv.URL+"/hooks/claude?big=1", "gwk_right", nil)
	if err != nil || st != http.StatusOK || !bytes.Equal(got, []byte(big)) {
		t.Fatalf("big body: %d, %d bytes, %v", st, len(got), err)
	}
}

// TestReadResponseRefuses: what is not an HTTP answer, a cut body or a
// chunked one is an error, never a status the doctor would believe.
func TestReadResponseRefuses(t *testing.T) {
	for _, in := range []string{
		"",
		"SSH-2.0-OpenSSH_9.6\r\n",
		"HTTP/1.0 2OO OK\r\n\r\n",
		"HTTP/1.0 200 OK\r\nContent-Length: 10\r\n\r\nshort",
		"HTTP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n",
	} {
		if st, b, err := readResponse(bufio.NewReader(strings.NewReader(in))); err == nil {
			t.Errorf("%q: %d %q, want an error", in, st, b)
		}
	}
	st, b, err := readResponse(bufio.NewReader(strings.NewReader("HTTP/1.0 401 Unauthorized\r\ncontent-length: 3\r\n\r\nno\nextra")))
	if err != nil || st != 401 || string(b) != "no\n" {
		t.Fatalf("got %d %q %v", st, b, err)
	}
}
