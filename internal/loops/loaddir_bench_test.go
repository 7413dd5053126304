package loops

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoadDir50 loads 50 realistic loops, what an unpinned hook does on
// every call to route it.
func BenchmarkLoadDir50(b *testing.B) {
	dir := b.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "templates", "loops", "fix-bug-on-branch.loop.md"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		name := fmt.Sprintf("loop-%02d", i)
		body := strings.Replace(string(src), "name: fix-bug-on-branch", "name: "+name, 1)
		if err := os.WriteFile(filepath.Join(dir, name+FileSuffix), []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if ls, errs := LoadDir(dir); len(errs) > 0 || len(ls) != 50 {
			b.Fatalf("loaded %d loops, errors %v", len(ls), errs)
		}
	}
}
