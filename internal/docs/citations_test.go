package docs

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, seen from this package's directory.
const root = "../.."

// citation is `docs/<file>#<anchor>` in source and scripts; ".md" may be
// left off the file name.
var citation = regexp.MustCompile(`docs/([A-Za-z0-9_.-]+?)(?:\.md)?#([A-Za-z0-9_-]+)`)

// outside is a citation of a document the repository does not hold.
// Each pattern is written so that it does not match itself.
var outside = regexp.MustCompile(`DESIGN[ ]§|ecosystem[.]md|\bSTYLE\b|[.][.]/shared/|/work/share[d]`)

// mdLink is a Markdown link or image target: ](target) or ](target "title").
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestDocCitations: every `docs/<file>#<heading>` cited in a .go, .txtar or
// .sh file, and every relative link in README.md and docs/*.md, names a
// file that exists and, when it has one, an anchor that one of its
// headings produces under GitHub's slug rules; and no .go or .sh file
// cites a document the repository does not hold (the design notes by
// section number, the ecosystem reference, the style guide).
func TestDocCitations(t *testing.T) {
	anchors := map[string]map[string]bool{} // docs file → its anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			anchors[path] = nil
			return nil
		}
		anchors[path] = headingAnchors(string(b))
		return anchors[path]
	}
	cited := 0
	check := func(where, file, anchor string) {
		t.Helper()
		cited++
		a := anchorsOf(file)
		rel, _ := filepath.Rel(root, file)
		switch {
		case a == nil:
			t.Errorf("%s: cites %s, which does not exist", where, filepath.ToSlash(rel))
		case anchor != "" && !a[anchor]:
			t.Errorf("%s: cites %s#%s, but no heading there makes that anchor (have: %s)", where, filepath.ToSlash(rel), anchor, sortedKeys(a))
		}
	}

	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		switch ext := filepath.Ext(path); {
		case ext == ".go" || ext == ".txtar" || ext == ".sh":
			forLines(t, path, func(n int, line string) {
				if ext != ".txtar" && outside.MatchString(line) {
					t.Errorf("%s:%d: cites %q, which is not in the repository: cite docs/<file>#<heading> or nothing", rel, n, outside.FindString(line))
				}
				for _, m := range citation.FindAllStringSubmatch(line, -1) {
					check(rel+":"+strconv.Itoa(n), filepath.Join(root, "docs", m[1]+".md"), m[2])
				}
			})
		case ext == ".md" && (rel == "README.md" || strings.HasPrefix(rel, "docs/")):
			inFence := false
			forLines(t, path, func(n int, line string) {
				if strings.HasPrefix(strings.TrimSpace(line), "```") {
					inFence = !inFence
				}
				if inFence {
					return
				}
				for _, m := range mdLink.FindAllStringSubmatch(stripCode(line), -1) {
					target := m[1]
					if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
						continue
					}
					file, anchor, _ := strings.Cut(target, "#")
					if file == "" {
						file = path
					} else {
						file = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
					}
					if !strings.HasSuffix(file, ".md") {
						if _, err := os.Stat(file); err != nil {
							t.Errorf("%s:%d: links to %s, which does not exist", rel, n, target)
						}
						continue
					}
					check(rel+":"+strconv.Itoa(n), file, anchor)
				}
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 20 {
		t.Fatalf("found only %d citations: is the walk reading the repository?", cited)
	}
}

func forLines(t *testing.T, path string, f func(n int, line string)) {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		f(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// stripCode drops inline code spans, where a ](…) is text, not a link.
func stripCode(line string) string {
	var b strings.Builder
	in := false
	for _, r := range line {
		if r == '`' {
			in = !in
			continue
		}
		if !in {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// headingAnchors lists the anchors GitHub gives a Markdown file's ATX
// headings: the heading's text, lower-cased, with everything but letters,
// digits, marks, spaces, '-' and '_' removed and spaces turned into '-';
// a repeated anchor gets -1, -2, … Headings in fenced code are not
// headings.
func headingAnchors(md string) map[string]bool {
	out := map[string]bool{}
	count := map[string]int{}
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimLeft(line, "#")
		if len(line)-len(text) > 6 || (text != "" && text[0] != ' ' && text[0] != '\t') {
			continue // not a heading: "#######" or "#tag"
		}
		slug := slug(text)
		if n := count[slug]; n > 0 {
			out[slug+"-"+strconv.Itoa(n)] = true
		} else {
			out[slug] = true
		}
		count[slug]++
	}
	return out
}

var inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// slug is GitHub's anchor for a heading's text.
func slug(text string) string {
	text = strings.TrimSpace(text)
	text = strings.TrimSpace(strings.TrimRight(text, "#")) // closing #s
	text = inlineLink.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sortedKeys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// TestSlug pins the slug rules against anchors GitHub makes.
func TestSlug(t *testing.T) {
	for text, want := range map[string]string{
		" Repositories gitwarrant refuses": "repositories-gitwarrant-refuses",
		" What `check --json` prints?":     "what-check---json-prints",
		" A & B":                           "a--b",
		" Café 2.0 ##":                     "café-20",
		" [The record](design.md) (v0.1)":  "the-record-v01",
		" snake_case and CamelCase":        "snake_case-and-camelcase",
		" Claude Code hooks":               "claude-code-hooks",
	} {
		if got := slug(text); got != want {
			t.Errorf("slug(%q) = %q, want %q", text, got, want)
		}
	}
	a := headingAnchors("# T\n## Notes\n```\n## Not a heading\n```\n## Notes\n#hashtag\n")
	for _, want := range []string{"t", "notes", "notes-1"} {
		if !a[want] {
			t.Errorf("anchors %v lack %q", a, want)
		}
	}
	if a["not-a-heading"] || a["hashtag"] {
		t.Errorf("anchors %v hold a non-heading", a)
	}
}
