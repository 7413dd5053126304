// Package sign makes and checks the SSH signatures (SSHSIG, namespace
// `gitwarrant`) that bind a person to an amend, against the project's
// `.gitwarrant/allowed_signers` (docs/signing.md#what-a-signature-binds).
//
// Signing goes through `ssh-keygen -Y sign`, so ssh-agent, passphrases and
// FIDO keys work; verification is pure Go and follows OpenSSH's rules for
// allowed_signers (docs/signing.md#allowed-signers).
package sign

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Namespace is the SSHSIG namespace of every gitwarrant signature: a
// signature made for git commits or files cannot be passed off as an amend.
const Namespace = "gitwarrant"

// Signer is one line of allowed_signers.
type Signer struct {
	Line        int    // 1-based line in the file
	Principals  string // comma-separated patterns, as written (unquoted)
	Namespaces  string // namespaces= patterns; "" when the option is absent
	HasNS       bool   // the namespaces= option is present
	ValidAfter  time.Time
	ValidBefore time.Time
	Key         ssh.PublicKey
	Comment     string
	Text        string // the line as written
}

// AllowedSigners is a parsed allowed_signers file.
type AllowedSigners struct {
	Path    string
	Signers []Signer
}

// ParseError is a malformed allowed_signers line.
type ParseError struct {
	Path string
	Line int
	Msg  string
	Hint string
}

func (e *ParseError) Error() string {
	s := fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	if e.Hint != "" {
		s += " — " + e.Hint
	}
	return s
}

// ParseAllowedSigners reads an allowed_signers file in OpenSSH's format
// (ssh-keygen(1) "ALLOWED SIGNERS"): `principals [options] keytype key
// [comment]`, `#` comments and blank lines. Every malformed line is an
// error naming it: a file that says less than its author meant must not
// quietly verify less, or more. `cert-authority` lines are refused.
func ParseAllowedSigners(path string, data []byte) (*AllowedSigners, error) {
	as := &AllowedSigners{Path: path}
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimRight(raw, "\r")
		s, err := parseSignerLine(path, i+1, line)
		if err != nil {
			return nil, err
		}
		if s != nil {
			as.Signers = append(as.Signers, *s)
		}
	}
	return as, nil
}

const whitespace = " \t\r\n"

// IsSignerLine reports whether ParseAllowedSigners reads line (one line,
// without its newline) as a signer rather than a blank or a comment: as
// OpenSSH, only blanks and tabs are skipped before `#`. The warrant diff
// counts exactly these lines, so a line that only looks like a comment
// (a vertical tab or no-break space before `#`) is never a hidden signer.
func IsSignerLine(line string) bool {
	cp := strings.TrimLeft(strings.TrimRight(line, "\r"), " \t")
	return cp != "" && cp[0] != '#'
}

func parseSignerLine(path string, n int, line string) (*Signer, error) {
	bad := func(msg, hint string) error { return &ParseError{Path: path, Line: n, Msg: msg, Hint: hint} }
	if !IsSignerLine(line) {
		return nil, nil
	}
	cp := strings.TrimLeft(line, " \t")
	principals, rest, ok := strdelim(cp)
	if !ok {
		return nil, bad("the principals' closing quote is missing", `close the quote: "a@example.com,b@example.com"`)
	}
	if principals == "" {
		return nil, bad("no principal before the key", "start the line with the signer's principal (an email address)")
	}
	s := &Signer{Line: n, Principals: principals, Text: line}
	key, comment, err := parseKey(rest)
	if err != nil && looksLikeKeyType(rest) {
		return nil, bad("not a public key: "+err.Error(), "paste the whole line of the signer's .pub file after the principal")
	}
	if err != nil {
		// Not a key: options come first (OpenSSH tries the same order).
		opts, after, ok := cutOptions(rest)
		if !ok {
			return nil, bad("an option's closing quote is missing", `write options as name="value"`)
		}
		if err := s.parseOptions(opts); err != nil {
			return nil, bad(err.Error(), `options are namespaces="gitwarrant", valid-after="YYYYMMDD[HHMM[SS]][Z]", valid-before="…"`)
		}
		after = strings.TrimLeft(after, " \t")
		if after == "" {
			return nil, bad("the line has no public key", "append the key: ssh-ed25519 AAAA… (the contents of the .pub file)")
		}
		if key, comment, err = parseKey(after); err != nil {
			return nil, bad("not a public key: "+err.Error(), "paste the whole line of the signer's .pub file after the principal")
		}
	}
	s.Key, s.Comment = key, comment
	return s, nil
}

// looksLikeKeyType reports whether s starts with an SSH key type name, so
// a damaged key is reported as one rather than as an unknown option.
func looksLikeKeyType(s string) bool {
	for _, p := range []string{"ssh-", "ecdsa-", "sk-"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// strdelim is OpenSSH's strdelimw: the first word of s, where a double
// quote starts a quoted section that ends the word at its closing quote.
// ok is false for an unclosed quote.
func strdelim(s string) (word, rest string, ok bool) {
	i := strings.IndexAny(s, whitespace+`"`)
	if i < 0 {
		return s, "", true
	}
	if s[i] != '"' {
		return s[:i], strings.TrimLeft(s[i:], whitespace), true
	}
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return "", "", false
	}
	return s[:i] + s[i+1:i+1+j], strings.TrimLeft(s[i+2+j:], whitespace), true
}

// cutOptions is OpenSSH's sshkey_advance_past_options: options run to the
// first space or tab outside double quotes (`\"` does not toggle).
func cutOptions(s string) (opts, rest string, ok bool) {
	quoted := false
	i := 0
	for ; i < len(s) && (quoted || (s[i] != ' ' && s[i] != '\t')); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '"' {
			i++
		} else if s[i] == '"' {
			quoted = !quoted
		}
	}
	if quoted {
		return "", "", false
	}
	return s[:i], s[i:], true
}

// parseKey reads `keytype base64 [comment]`.
func parseKey(s string) (ssh.PublicKey, string, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return nil, "", fmt.Errorf("expected a key type and a base64 key")
	}
	blob, err := base64.StdEncoding.DecodeString(f[1])
	if err != nil {
		return nil, "", fmt.Errorf("the key is not valid base64")
	}
	key, err := ssh.ParsePublicKey(blob)
	if err != nil {
		return nil, "", err
	}
	if key.Type() != f[0] {
		return nil, "", fmt.Errorf("the key type %q does not match the key (%s)", f[0], key.Type())
	}
	if _, isCert := key.(*ssh.Certificate); isCert {
		return nil, "", fmt.Errorf("certificates are not supported; list the person's own key")
	}
	return key, strings.Join(f[2:], " "), nil
}

// parseOptions is OpenSSH's sshsigopt_parse, less cert-authority.
func (s *Signer) parseOptions(opts string) error {
	seen := map[string]bool{}
	for opts != "" {
		end := strings.IndexAny(opts, "=,")
		if end < 0 {
			end = len(opts)
		}
		name := strings.ToLower(opts[:end])
		if name == "cert-authority" {
			return fmt.Errorf("cert-authority is not supported: gitwarrant verifies each person's own key, not keys certified by a CA")
		}
		if name != "namespaces" && name != "valid-after" && name != "valid-before" {
			return fmt.Errorf("unsupported option %q", opts[:end])
		}
		if end == len(opts) || opts[end] != '=' {
			return fmt.Errorf("option %q needs a value: %s=\"…\"", opts[:end], name)
		}
		if seen[name] {
			return fmt.Errorf("multiple %q clauses", name)
		}
		seen[name] = true
		val, after, err := dequote(opts[len(name)+1:])
		if err != nil {
			return fmt.Errorf("option %s: %v", name, err)
		}
		switch name {
		case "namespaces":
			s.Namespaces, s.HasNS = val, true
		case "valid-after", "valid-before":
			t, err := ParseTime(val)
			if err != nil {
				return fmt.Errorf("invalid %q time %q: %v", name, val, err)
			}
			if name == "valid-after" {
				s.ValidAfter = t
			} else {
				s.ValidBefore = t
			}
		}
		if after == "" || after[0] == ' ' || after[0] == '\t' {
			break
		}
		if after[0] != ',' {
			return fmt.Errorf("unexpected %q after option %s", after[:1], name)
		}
		opts = after[1:]
	}
	if !s.ValidAfter.IsZero() && !s.ValidBefore.IsZero() && !s.ValidBefore.After(s.ValidAfter) {
		return fmt.Errorf(`"valid-before" time is not after "valid-after"`)
	}
	return nil
}

// dequote is OpenSSH's opt_dequote: a value in double quotes, `\"` for a
// quote inside it.
func dequote(s string) (val, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", fmt.Errorf("the value must be in double quotes")
	}
	var b bytes.Buffer
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		case s[i] == '"':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("the closing quote is missing")
}

// ParseTime is OpenSSH's parse_absolute_time: YYYYMMDD, YYYYMMDDHHMM or
// YYYYMMDDHHMMSS, in UTC with a `Z` (or `UTC`) suffix, else local time.
func ParseTime(s string) (time.Time, error) {
	loc := time.Local
	switch {
	case len(s) > 1 && strings.EqualFold(s[len(s)-1:], "z"):
		s, loc = s[:len(s)-1], time.UTC
	case len(s) > 3 && strings.EqualFold(s[len(s)-3:], "utc"):
		s, loc = s[:len(s)-3], time.UTC
	}
	layout := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(s)]
	if layout == "" {
		return time.Time{}, fmt.Errorf("want YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, optionally ending in Z")
	}
	return time.ParseInLocation(layout, s, loc)
}
