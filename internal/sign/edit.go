package sign

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"
)

// SignerLine is the allowed_signers line for principal and key, limited to
// the gitwarrant namespace so the line cannot admit signatures made for
// anything else.
func SignerLine(principal string, key ssh.PublicKey, comment string) (string, error) {
	if principal == "" || strings.ContainsAny(principal, " \t\"*?!,#") {
		return "", fmt.Errorf("principal %q must be one name without spaces, quotes, commas or patterns (an email address)", principal)
	}
	line := principal + ` namespaces="` + Namespace + `" ` + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))
	if c := strings.Join(strings.Fields(comment), " "); c != "" {
		line += " " + c
	}
	return line, nil
}

// AddLine appends line to an allowed_signers file's bytes.
func AddLine(data []byte, line string) []byte {
	s := string(data)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return []byte(s + line + "\n")
}

// RemoveSigner drops the lines that list principal literally (as one of
// their comma-separated principals) and, when key is not nil, that key. A
// line listing other principals too is refused: removing it would remove
// them as well. It returns the new bytes and the removed lines.
func RemoveSigner(path string, data []byte, principal string, key ssh.PublicKey) ([]byte, []string, error) {
	as, err := ParseAllowedSigners(path, data)
	if err != nil {
		return nil, nil, err
	}
	drop := map[int]bool{}
	var removed []string
	for _, s := range as.Signers {
		names := strings.Split(s.Principals, ",")
		if !contains(names, principal) || (key != nil && !sameKey(s.Key, key)) {
			continue
		}
		if len(names) > 1 {
			return nil, nil, &ParseError{Path: path, Line: s.Line, Msg: fmt.Sprintf("the line lists %s together with others", s.Principals),
				Hint: "edit that line by hand; removing it would remove the others too"}
		}
		drop[s.Line] = true
		removed = append(removed, s.Text)
	}
	if len(removed) == 0 {
		return nil, nil, fmt.Errorf("%s lists no key for %s", path, principal)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var out strings.Builder
	for i, l := range lines {
		if !drop[i+1] {
			out.WriteString(l)
		}
	}
	return []byte(out.String()), removed, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
