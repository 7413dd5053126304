package chain

import (
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"
)

// The expected strings are what JavaScript's JSON.stringify produces for
// the same values (checked by hand against ECMA-262 QuoteJSONString and
// Number::toString; TestNodeInterop checks the same rules against node).
func TestCanonicalMatchesJSONStringify(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"html chars stay literal", "<a&b>", `"<a&b>"`},
		{"line separators stay literal", "a\u2028b\u2029c", "\"a\u2028b\u2029c\""},
		{"short escapes", "\"\\\b\f\n\r\t", `"\"\\\b\f\n\r\t"`},
		{"other controls lowercase hex", "\x00\x1f\x0b", `"\u0000\u001f\u000b"`},
		{"DEL and non-ASCII literal", "\x7fé🚀", "\"\x7fé🚀\""},
		{"number literal kept", json.Number("1.50"), `1.50`},
		{"int64", int64(-42), `-42`},
		{"float plain", 0.1, `0.1`},
		{"float large", 1e21, `1e+21`},
		{"float just below exponent", 1e20, `100000000000000000000`},
		{"float small", 1.5e-7, `1.5e-7`},
		{"negative zero", math.Copysign(0, -1), `0`},
		{"nested sorted, no spaces", map[string]any{"b": []any{true, nil}, "a": map[string]any{"d": 1, "c": "x"}},
			`{"a":{"c":"x","d":1},"b":[true,null]}`},
		{"keys in UTF-16 order", map[string]any{"\uffff": 1, "😀": 2, "z": 3, "Z": 4},
			"{\"Z\":4,\"z\":3,\"😀\":2,\"\uffff\":1}"},
		{"other Go types via encoding/json", []string{"b", "a"}, `["b","a"]`},
		{"empty object and array", map[string]any{"a": []any{}, "b": map[string]any{}}, `{"a":[],"b":{}}`},
	}
	for _, c := range cases {
		got, err := Canonical(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: Canonical = %s, %v; want %s", c.name, got, err, c.want)
		}
	}
}

func TestCanonicalRejects(t *testing.T) {
	for name, v := range map[string]any{
		"invalid UTF-8 value": "a\xffb",
		"invalid UTF-8 key":   map[string]any{"\xff": 1},
		"NaN":                 math.NaN(),
		"bad json.Number":     json.Number("1e"),
		"json.Number spaces":  json.Number(" 1"),
	} {
		if got, err := Canonical(v); err == nil {
			t.Errorf("%s: Canonical = %s, want an error", name, got)
		}
	}
}

func TestComputeHashIgnoresHashField(t *testing.T) {
	f := map[string]any{"seq": 1, "prev": Genesis, "kind": "note"}
	a, _ := ComputeHash(Genesis, f)
	f["hash"] = "sha256:whatever"
	b, _ := ComputeHash(Genesis, f)
	c, _ := ComputeHash("other", f)
	if a != b || a == c || len(a) != len("sha256:")+64 {
		t.Fatalf("hashes %s %s %s", a, b, c)
	}
}

// TestCanonicalFloatsMatchNode compares float formatting with node's
// Number#toString directly. Skipped without node.
func TestCanonicalFloatsMatchNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH")
	}
	floats := []float64{1.5e-7, 1e-6, 0.0000015, 1e21, 1e20, 123456789.123, 5e-324, 1.7976931348623157e308, -2.5e-9, 0.1 + 0.2}
	arr, _ := json.Marshal(floats)
	out, err := exec.Command(node, "-e", "console.log(JSON.stringify("+string(arr)+"))").Output()
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]any, len(floats))
	for i, f := range floats {
		vals[i] = f
	}
	got, err := Canonical(vals)
	if err != nil || string(got) != strings.TrimSpace(string(out)) {
		t.Fatalf("Canonical = %s, node = %s", got, out)
	}
}
