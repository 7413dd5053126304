package shell

// SedRuns reports whether a sed script runs a command or writes a file: the
// `e`, `w` and `W` commands, or an s command's `e` or `w` flag. The script
// is read as GNU sed reads it (addresses, `{}` blocks, labels, the text of
// a, i and c, an s or y command's delimited parts), so `s/old/new/g` is a
// substitution whatever letters its parts hold; a script it cannot read to
// the end counts as one that runs (docs/shell.md#opaque).
func SedRuns(script string) bool {
	s := sedScanner{src: script}
	return s.runs()
}

type sedScanner struct {
	src string
	i   int
}

func (s *sedScanner) eof() bool { return s.i >= len(s.src) }

func (s *sedScanner) peek() byte {
	if s.eof() {
		return 0
	}
	return s.src[s.i]
}

func (s *sedScanner) blanks() {
	for !s.eof() && (s.peek() == ' ' || s.peek() == '\t') {
		s.i++
	}
}

// toEnd skips to the end of the line.
func (s *sedScanner) toEnd() {
	for !s.eof() && s.peek() != '\n' {
		s.i++
	}
}

// toSep skips a label: to `;` or the end of the line.
func (s *sedScanner) toSep() {
	for !s.eof() && s.peek() != '\n' && s.peek() != ';' {
		s.i++
	}
}

// delimited reads up to the next unescaped delim; false at the end.
func (s *sedScanner) delimited(delim byte) bool {
	for !s.eof() {
		c := s.peek()
		s.i++
		switch {
		case c == '\\':
			s.i++
		case c == delim:
			return true
		}
	}
	return false
}

func (s *sedScanner) digits() {
	for !s.eof() && s.peek() >= '0' && s.peek() <= '9' {
		s.i++
	}
}

// address reads one address, if any; false when it cannot be read.
func (s *sedScanner) address() bool {
	switch c := s.peek(); {
	case c >= '0' && c <= '9':
		s.digits()
		if s.peek() == '~' {
			s.i++
			s.digits()
		}
	case c == '$':
		s.i++
	case c == '/' || c == '\\':
		s.i++
		delim := byte('/')
		if c == '\\' {
			if s.eof() {
				return false
			}
			delim = s.peek()
			s.i++
		}
		if !s.delimited(delim) {
			return false
		}
		for s.peek() == 'I' || s.peek() == 'M' {
			s.i++
		}
	}
	return true
}

func (s *sedScanner) runs() bool {
	for {
		for !s.eof() && (s.peek() == ' ' || s.peek() == '\t' || s.peek() == '\n' || s.peek() == ';') {
			s.i++
		}
		if s.eof() {
			return false
		}
		if !s.address() {
			return true
		}
		s.blanks()
		if s.peek() == ',' {
			s.i++
			s.blanks()
			if s.peek() == '+' || s.peek() == '~' {
				s.i++
				s.digits()
			} else if !s.address() {
				return true
			}
		}
		s.blanks()
		for s.peek() == '!' {
			s.i++
			s.blanks()
		}
		if s.eof() {
			return true // an address with no command: not sed we can read
		}
		c := s.peek()
		s.i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case '#', 'a', 'i', 'c', 'r', 'R':
			// a comment, text, or a file read: to the end of the line
			// (a, i and c continue over an escaped newline)
			for !s.eof() && s.peek() != '\n' {
				if s.peek() == '\\' {
					s.i++
				}
				s.i++
			}
		case ':', 'b', 't', 'T', 'v':
			s.blanks()
			s.toSep()
		case 'q', 'Q', 'l', 'L':
			s.blanks()
			s.digits()
		case 'e', 'w', 'W':
			return true
		case 's', 'y':
			if s.eof() || s.peek() == '\n' || s.peek() == '\\' {
				return true
			}
			delim := s.peek()
			s.i++
			if !s.delimited(delim) || !s.delimited(delim) {
				return true
			}
			if c == 'y' {
				break
			}
			for !s.eof() {
				f := s.peek()
				if f == 'e' || f == 'w' {
					return true
				}
				if f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || f >= '0' && f <= '9' {
					s.i++
					continue
				}
				break
			}
		default:
			return true
		}
		s.blanks()
		switch s.peek() {
		case 0, ';', '\n', '}', '#':
		default:
			if c != '}' && c != '{' {
				return true
			}
		}
	}
}
