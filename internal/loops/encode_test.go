package loops

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// corpus is every loop file the repository holds that parses: the
// templates, and the loop files of the black-box scripts (lenient lines,
// examples, extends, warnings, odd quoting).
func corpus(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	tpl, _ := filepath.Glob("../templates/loops/*" + FileSuffix)
	for _, p := range tpl {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	scripts, _ := filepath.Glob("../../testdata/script/*.txtar")
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, FileSuffix) {
				out[s+"/"+f.Name] = f.Data
			}
		}
	}
	if len(tpl) < 5 || len(out) < 40 {
		t.Fatalf("the corpus is too small (%d templates, %d files): are the paths right?", len(tpl), len(out))
	}
	return out
}

// TestDecodeParsedIsParse: for every loop file the repository holds, the
// encoded parse decodes to exactly what Parse returns — every field,
// unexported ones and the compiled typed entries included.
func TestDecodeParsedIsParse(t *testing.T) {
	n := 0
	for p, data := range corpus(t) {
		want, err := Parse(p, data)
		if err != nil {
			continue
		}
		n++
		sum := ParseSum(data)
		got, err := DecodeParsed(p, data, EncodeParsed(want, sum))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(withoutTyped(got), withoutTyped(want)) {
			t.Fatalf("%s: the decoded parse differs from Parse's", p)
		}
		if !reflect.DeepEqual(got.Warrant.Typed(), want.Warrant.Typed()) {
			t.Fatalf("%s: the decoded parse's typed entries differ from Parse's", p)
		}
	}
	if n < 35 {
		t.Fatalf("only %d files parsed", n)
	}
}

// withoutTyped is a copy of l whose items hold no compiled typed entry
// (a decoded parse compiles them when first asked).
func withoutTyped(l *Loop) *Loop {
	m := *l
	for _, name := range Lists {
		items := slices.Clone(m.Warrant.List(name))
		for i := range items {
			items[i].typed, items[i].lazy = nil, nil
		}
		m.Warrant.SetList(name, items)
	}
	return &m
}

// fill sets every settable field of v to a value that is neither zero nor
// shared with another field, so a field the encoding forgets shows.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", *n))
	case reflect.Int:
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				fill(f, n)
			}
		}
	}
}

// TestEncodeParsedCoversEveryField fails when a field is added to Loop
// (or Item, Example, Warning) and not to the encoding.
func TestEncodeParsedCoversEveryField(t *testing.T) {
	var l Loop
	n := 0
	fill(reflect.ValueOf(&l).Elem(), &n)
	l.allowsNothing = true
	data := []byte("the bytes")
	sum := ParseSum(data)
	l.Path, l.Source, l.Digest, l.BlobID = "x/job.loop.md", data, Digest(data), BlobID(data)
	got, err := DecodeParsed(l.Path, data, EncodeParsed(&l, sum))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, &l) {
		t.Fatalf("a field is lost in the encoding:\n got %+v\nwant %+v", *got, l)
	}
}

// TestDecodeParsedRefusesAnythingElse: an encoding is taken only for the
// path and the bytes it was made from, in this format, whole.
func TestDecodeParsedRefusesAnythingElse(t *testing.T) {
	path := "../templates/loops/fix-bug-on-branch" + FileSuffix
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	sum := ParseSum(data)
	enc := EncodeParsed(l, sum)
	other := append(bytes.Clone(data), '\n')
	wrongFormat := bytes.Clone(enc)
	wrongFormat[len(encodeMagic)]++
	cases := map[string]func() (*Loop, error){
		"other bytes":     func() (*Loop, error) { return DecodeParsed(path, other, enc) },
		"another path":    func() (*Loop, error) { return DecodeParsed("x/fix-bug-on-branch"+FileSuffix, data, enc) },
		"another format":  func() (*Loop, error) { return DecodeParsed(path, data, wrongFormat) },
		"a byte more":     func() (*Loop, error) { return DecodeParsed(path, data, append(bytes.Clone(enc), 0)) },
		"not an encoding": func() (*Loop, error) { return DecodeParsed(path, data, data) },
	}
	for name, f := range cases {
		if got, err := f(); err != ErrNotParsed || got != nil {
			t.Errorf("%s: decoded (%v), want ErrNotParsed", name, err)
		}
	}
	for i := range len(enc) {
		if _, err := DecodeParsed(path, data, enc[:i]); err == nil {
			t.Fatalf("the encoding cut to %d of %d bytes decoded", i, len(enc))
		}
	}
}

// BenchmarkDecodeParsed compares, for one template, Parse with decoding
// its parse: this encoding, gob with a fresh decoder (each hook process
// starts without gob's compiled types), and JSON of the exported fields.
// The figures are in encode.go's comment.
func BenchmarkDecodeParsed(b *testing.B) {
	path := "../templates/loops/fix-bug-on-branch" + FileSuffix
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	l, err := Parse(path, data)
	if err != nil {
		b.Fatal(err)
	}
	sum := ParseSum(data)
	enc := EncodeParsed(l, sum)
	var gb bytes.Buffer
	if err := gob.NewEncoder(&gb).Encode(l); err != nil {
		b.Fatal(err)
	}
	js, _ := json.Marshal(l)
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(path, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeParsed(path, data, enc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gob-fresh", func(b *testing.B) {
		for b.Loop() {
			var got Loop
			if err := gob.NewDecoder(bytes.NewReader(gb.Bytes())).Decode(&got); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			var got Loop
			if err := json.Unmarshal(js, &got); err != nil {
				b.Fatal(err)
			}
		}
	})
}
