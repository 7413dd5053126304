package chain

import (
	"strconv"
	"strings"
	"testing"
)

// ParseSegName reads names exactly as the strconv-based reader it replaced.
func TestParseSegNameMatchesStrconv(t *testing.T) {
	old := func(name string) (int64, int64, bool) {
		base, ok := strings.CutSuffix(name, ".jsonl")
		a, b, ok2 := strings.Cut(base, "-")
		if !ok || !ok2 || len(a) != 9 || len(b) != 9 {
			return 0, 0, false
		}
		from, err1 := strconv.ParseInt(a, 10, 64)
		to, err2 := strconv.ParseInt(b, 10, 64)
		return from, to, err1 == nil && err2 == nil && from >= 1 && to >= from
	}
	names := []string{
		"000000001-000000128.jsonl", "000000129-000000129.jsonl", "000000002-000000001.jsonl",
		"000000000-000000001.jsonl", "+00000001-000000005.jsonl", "-00000001-000000005.jsonl",
		"000000001--00000005.jsonl", "000000001-+00000005.jsonl", "00000001-0000000005.jsonl",
		"000000001-000000128.json", "000000001-000000128.jsonl.tmp", "00000000a-000000128.jsonl",
		"000000001_000000128.jsonl", "999999999-999999999.jsonl", "", "x", ".jsonl",
	}
	for _, n := range names {
		f1, t1, ok1 := old(n)
		f2, t2, ok2 := ParseSegName(n)
		f3, t3, ok3 := ParseSegName([]byte(n))
		if ok1 != ok2 || ok1 && (f1 != f2 || t1 != t2) || ok2 != ok3 || f2 != f3 || t2 != t3 {
			t.Errorf("%q: strconv (%d, %d, %v), ParseSegName (%d, %d, %v), bytes (%d, %d, %v)", n, f1, t1, ok1, f2, t2, ok2, f3, t3, ok3)
		}
	}
}
