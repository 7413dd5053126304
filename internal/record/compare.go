package record

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// copyCompare holds a writer's work-tree files to its ref in the same pass
// that verifies the ref (docs/record.md#verification): it is written the
// ref's bytes and compares each line that a file covers with that file's
// next line, so the ref is read once.
type copyCompare struct {
	r        *Record
	dir      string
	files    []segFile // non-overlapping, in order
	i        int       // current file
	f        *os.File
	br       *bufio.Reader
	bad      bool // current file already has a finding
	line     int64
	ls       lineSplitter
	findings []Finding
}

func newCopyCompare(r *Record, dir string, files []segFile) *copyCompare {
	c := &copyCompare{r: r, dir: dir, files: files}
	c.ls.each = c.compareLine
	return c
}

func (c *copyCompare) Write(b []byte) (int, error) { return c.ls.Write(b) }

func (c *copyCompare) compareLine(line []byte) {
	c.line++
	for c.i < len(c.files) && c.line > c.files[c.i].To {
		c.closeFile()
	}
	if c.i >= len(c.files) || c.line < c.files[c.i].From || c.bad {
		return
	}
	s := c.files[c.i]
	if c.f == nil {
		f, err := os.Open(filepath.Join(c.dir, s.Name))
		if err != nil {
			c.add(s, 0, KindUnreadable, err.Error())
			return
		}
		c.f, c.br = f, bufio.NewReaderSize(f, 256<<10)
	}
	got, err := c.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull || !bytes.Equal(bytes.TrimSuffix(got, []byte("\n")), line) || err != nil {
		c.add(s, c.line-s.From+1, KindDiffers, fmt.Sprintf("differs from entry #%d of the ref", c.line))
	}
}

// matched tells the compare that the ref's lines s.From..s.To are file s
// byte for byte (their blob ids agree): nothing to compare line by line.
func (c *copyCompare) matched(s segFile) {
	c.line = s.From - 1
	for c.i < len(c.files) && c.files[c.i].To < s.From {
		c.closeFile()
	}
	if c.i < len(c.files) && c.files[c.i].Name == s.Name {
		c.i++
	}
	c.line = s.To
}

// closeFile finishes the current file: bytes after its last line are
// entries the ref does not have.
func (c *copyCompare) closeFile() {
	s := c.files[c.i]
	if c.f != nil {
		if !c.bad {
			if _, err := c.br.ReadByte(); err != io.EOF {
				c.add(s, s.To-s.From+2, KindBeyondRef, "the file holds more than its name says")
			}
		}
		c.f.Close()
	}
	c.f, c.br, c.bad = nil, nil, false
	c.i++
}

func (c *copyCompare) add(s segFile, line int64, kind, detail string) {
	c.bad = true
	c.findings = append(c.findings, Finding{Path: c.r.rel(filepath.Join(c.dir, s.Name)), Line: line, Seq: s.From + max(line, 1) - 1, Kind: kind, Detail: detail})
}

// finish closes the pass: files past the ref's end hold entries it lacks.
func (c *copyCompare) finish(refLines int64) []Finding {
	for c.i < len(c.files) {
		s := c.files[c.i]
		if !c.bad && s.To > refLines {
			c.add(s, refLines-s.From+2, KindBeyondRef, fmt.Sprintf("it holds entries up to #%d, the ref %d", s.To, refLines))
		}
		c.closeFile()
	}
	return c.findings
}
