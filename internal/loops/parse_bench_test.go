package loops

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkParseTemplate parses a realistic loop file (the insurance-appeal
// starter), the cost paid on every hook call.
func BenchmarkParseTemplate(b *testing.B) {
	data, err := os.ReadFile("../templates/loops/insurance-appeal.loop.md")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := Parse("insurance-appeal.loop.md", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLongQuotedLine guards against quadratic scanning: one
// flow list of many quoted items on a single line, near the size limit.
func BenchmarkParseLongQuotedLine(b *testing.B) {
	items := strings.Repeat(`"x", `, 30000)
	data := fm("", "name: t", "record: ["+items+`"y"]`)
	for b.Loop() {
		if _, err := Parse("t.loop.md", data); err != nil {
			b.Fatal(err)
		}
	}
}
