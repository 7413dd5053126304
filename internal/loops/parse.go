package loops

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// FileSuffix ends every loop file name: `<name>.loop.md`.
const FileSuffix = ".loop.md"

// ValidName reports whether s is a well-formed loop name. Because a valid
// name has no slash or dot, it is also safe to join onto a directory.
func ValidName(s string) bool {
	// The grammar `[a-z0-9][a-z0-9-]*`, checked byte by byte: every hook
	// call validates a name, and compiling a regular expression for it was
	// a measurable share of the hook's start-up (docs/threat-model.md#cost).
	if s == "" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Parse reads one loop file. path is used in messages and for the rule that
// `name` equals the file name minus `.loop.md` (spec "File format"). Every
// rejection is an *Error with the file, the 1-based line in the whole file,
// and a hint saying what to do.
func Parse(path string, data []byte) (*Loop, error) {
	if len(data) > MaxFileSize {
		return nil, &Error{File: path, Msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit for loop files", len(data), MaxFileSize),
			Hint: "move long reference material out of the loop and link to it, or split the task into several loops"}
	}
	if !utf8.Valid(data) {
		off := firstInvalidUTF8(data)
		return nil, &Error{File: path, Line: lineAt(data, off), Msg: fmt.Sprintf("file is not valid UTF-8 (byte 0x%02x at offset %d)", data[off], off),
			Hint: "save the file with UTF-8 encoding"}
	}
	fm, body, err := splitFrontmatter(path, data)
	if err != nil {
		return nil, err
	}
	l := &Loop{Path: path, Source: data, Version: SpecVersion, Digest: Digest(data), BlobID: BlobID(data)}
	nameLine, err := decodeFrontmatter(path, fm, l)
	if err != nil {
		return nil, err
	}
	if err := checkFileName(path, l, nameLine); err != nil {
		return nil, err
	}
	l.Preamble, l.Brief, l.Procedure = splitBody(body)
	return l, nil
}

// Digest returns "sha256:<hex>" of data, the content address stored with
// record entries.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// BlobID returns "git:<hex>", the Git blob id of data, computed in-process
// the way `git hash-object` does so no git call is needed (docs/loop-format.md#the-warrant).
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return "git:" + hex.EncodeToString(h.Sum(nil))
}

// frontmatter is the YAML between the two `---` lines.
type frontmatter struct {
	lines []string // frontmatter lines without line endings
	off   int      // add to a frontmatter line number to get the file line
}

// splitFrontmatter finds the frontmatter: the first line must be `---` and
// the next line that is exactly `---` closes it. A UTF-8 byte order mark
// before the first line is tolerated because Windows editors add one.
func splitFrontmatter(path string, data []byte) (frontmatter, []string, error) {
	text := string(bytes.TrimPrefix(data, []byte("\ufeff")))
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	if !isDelimiter(lines[0]) {
		return frontmatter{}, nil, &Error{File: path, Line: 1, Msg: "no frontmatter: a loop file must start with a line `---`",
			Hint: "add `---`, then the fields (name, warrant, …), then `---`, before the Markdown body"}
	}
	for i := 1; i < len(lines); i++ {
		if isDelimiter(lines[i]) {
			return frontmatter{lines: lines[1:i], off: 1}, lines[i+1:], nil
		}
	}
	return frontmatter{}, nil, &Error{File: path, Line: 1, Msg: "frontmatter opened on line 1 is never closed",
		Hint: "add a line `---` after the last frontmatter field"}
}

func isDelimiter(line string) bool {
	return strings.TrimRight(line, " \t") == "---"
}

// checkFileName enforces the spec rule that `name` matches the file name,
// so record entries never point at a loop that cannot be loaded.
func checkFileName(path string, l *Loop, nameLine int) error {
	base := filepath.Base(path)
	if !strings.HasSuffix(base, FileSuffix) {
		return &Error{File: path, Msg: fmt.Sprintf("file name %q does not end in %s", base, FileSuffix),
			Hint: fmt.Sprintf("rename the file to %s%s", l.Name, FileSuffix)}
	}
	stem := strings.TrimSuffix(base, FileSuffix)
	if stem != l.Name {
		return &Error{File: path, Line: nameLine, Msg: fmt.Sprintf("name %q does not match the file name %q", l.Name, base),
			Hint: fmt.Sprintf("rename the file to %s%s, or set `name: %s`", l.Name, FileSuffix, stem)}
	}
	return nil
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// lineAt returns the 1-based line holding byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
