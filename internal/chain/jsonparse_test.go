package chain

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecodeObject checks the strict parser against encoding/json: what it
// accepts, encoding/json accepts with the same value; what it refuses that
// encoding/json accepts is a duplicate key, a lone surrogate or deep nesting.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, ` {"a" : [1, -0.5e+3, "x\u00e9\ud83d\ude80\n", true, false, null, {}]} `,
		`{"a":1,"a":2}`, `{"a":"\ud800"}`, `{"a":01}`, `{"a":1,}`, `[1]`, `null`, `{"a":"\/"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			return
		}
		got, err := decodeObject(data)
		want, wantOK := stdDecode(data)
		switch {
		case err == nil && !wantOK:
			t.Fatalf("accepted %q, encoding/json refuses it", data)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%q: got %#v, encoding/json %#v", data, got, want)
		case err != nil && wantOK && !strings.Contains(err.Error(), "duplicate") &&
			!strings.Contains(err.Error(), "surrogate") && !strings.Contains(err.Error(), "nesting"):
			t.Fatalf("refused %q (%v), encoding/json accepts it", data, err)
		}
	})
}

func stdDecode(data []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, false
	}
	// Only JSON's own whitespace may follow (RFC 8259: space, tab, LF, CR);
	// strings.TrimSpace would also drop \v and \f, which JSON does not allow.
	if _, err := dec.Token(); err == nil || dec.InputOffset() != int64(len(data)) && strings.Trim(string(data[dec.InputOffset():]), " \t\n\r") != "" {
		return nil, false
	}
	return m, true
}

func TestDecodeObjectStrictness(t *testing.T) {
	for in, wantErr := range map[string]string{
		`{"a":1,"a":2}`:         "duplicate",
		`{"a":{"b":1,"b":1}}`:   "duplicate",
		`{"a":"\ud800"}`:        "surrogate",
		`{"a":"\udc00\ud800"}`:  "surrogate",
		`{"a":1} x`:             "after",
		`{"a":01}`:              "expected",
		"{\"a\":\"tab\there\"}": "control",
		strings.Repeat(`{"a":`, maxDepth+2) + "1" + strings.Repeat("}", maxDepth+2): "nesting",
	} {
		if _, err := decodeObject([]byte(in)); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%.40q: err = %v, want %q", in, err, wantErr)
		}
	}
	m, err := decodeObject([]byte(`{"s":"\ud83d\ude80\u00e9\/\"","n":-1.5E+2}`))
	if err != nil || m["s"] != "🚀é/\"" || m["n"] != json.Number("-1.5E+2") {
		t.Fatalf("decode = %#v, %v", m, err)
	}
}
