package ci

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/warrantdiff"
)

// GitHub shows 10 annotations per step: the Markdown report lists every
// unsigned widening beyond the annotated ones, with file:line.
func TestMarkdownListsWideningsBeyondTheAnnotated(t *testing.T) {
	r := &Report{Head: "pr", MergeBase: "mb", HeadCommit: "hc"}
	for i := 0; i < 13; i++ {
		r.Changes = append(r.Changes, warrantdiff.Change{Loop: "deploy", List: "read", Op: "add", Entry: fmt.Sprintf("thing %d", i), Kind: warrantdiff.Widening, Line: 5 + i})
	}
	var b bytes.Buffer
	r.Markdown(&b, ".gitwarrant", 10)
	out := b.String()
	for i := 10; i < 13; i++ {
		if !strings.Contains(out, fmt.Sprintf("- `.gitwarrant/loops/deploy.loop.md:%d` add read \"thing %d\"", 5+i, i)) {
			t.Fatalf("widening %d not listed:\n%s", i, out)
		}
	}
	if strings.Contains(out, "- `.gitwarrant/loops/deploy.loop.md:14` add read") {
		t.Fatalf("an annotated widening listed again:\n%s", out)
	}
}
