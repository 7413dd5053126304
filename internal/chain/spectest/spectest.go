// Package spectest is an independent reference implementation of the
// spec's hash chain ("The hash chain"), written from the spec text and
// sharing no code with package chain: keys sorted with sort.Strings,
// scalars encoded by encoding/json (HTML escaping off, then U+2028/2029
// unescaped, since JSON.stringify leaves them literal), its own verify
// loop. Only tests use it, to hold chain files (and `record export`) to
// the spec.
package spectest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

func Canonical(t testing.TB, v any) string {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = Canonical(t, k) + ":" + Canonical(t, x[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Canonical(t, e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("reference encode %#v: %v", v, err)
	}
	return unescapeLineSeps(strings.TrimSuffix(buf.String(), "\n"))
}

// unescapeLineSeps turns Go's \u2028 and \u2029 escapes back into the
// literal characters, skipping escaped backslashes.
func unescapeLineSeps(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && strings.HasPrefix(s[i:], `\u202`) && (s[i+5] == '8' || s[i+5] == '9') {
			b.WriteString(map[byte]string{'8': "\u2028", '9': "\u2029"}[s[i+5]])
			i += 5
			continue
		}
		if s[i] == '\\' {
			b.WriteString(s[i : i+2])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func Hash(t testing.TB, prev string, entry map[string]any) string {
	t.Helper()
	body := map[string]any{}
	for k, v := range entry {
		if k != "hash" {
			body[k] = v
		}
	}
	sum := sha256.Sum256([]byte(prev + "\n" + Canonical(t, body)))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Verify checks a whole record per the spec and returns its head.
func Verify(t testing.TB, data []byte) string {
	t.Helper()
	prev := "GENESIS"
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("reference: line %d unparsable: %v", i+1, err)
		}
		if m["seq"] != json.Number(fmt.Sprint(i+1)) {
			t.Fatalf("reference: line %d has seq %v", i+1, m["seq"])
		}
		if m["prev"] != prev {
			t.Fatalf("reference: line %d prev %v, want %s", i+1, m["prev"], prev)
		}
		if want := Hash(t, prev, m); m["hash"] != want {
			t.Fatalf("reference: line %d hash %v, want %s", i+1, m["hash"], want)
		}
		prev = m["hash"].(string)
	}
	return prev
}
