package loops

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// WebFetch(domain:<host>), WebSearch and mcp__ entries
// (docs/typed-entries.md#web-and-mcp).

func (t *Typed) parseDomain(arg string) error {
	host, ok := strings.CutPrefix(arg, "domain:")
	if !ok {
		return fmt.Errorf("write WebFetch(domain:<host>) or WebFetch(domain:*.<host>)")
	}
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		t.wild, host = true, rest
	}
	h, err := normalHost(host)
	if err != nil {
		return err
	}
	if strings.Contains(h, "*") {
		return fmt.Errorf("only a leading `*.` is a wildcard in a domain")
	}
	t.host = h
	return nil
}

// normalHost lower-cases a host and turns it into its ASCII (IDNA) form, so
// a look-alike spelling compares as what it resolves to.
func normalHost(h string) (string, error) {
	h = strings.TrimSuffix(strings.TrimSpace(h), ".")
	if h == "" {
		return "", errors.New("no host")
	}
	if strings.HasPrefix(h, "[") || net.ParseIP(h) != nil {
		return strings.ToLower(strings.Trim(h, "[]")), nil
	}
	a, err := idna.Lookup.ToASCII(h)
	if err != nil {
		return "", fmt.Errorf("host %q is not a valid domain name: %v", h, err)
	}
	return strings.ToLower(a), nil
}

// URLHost parses a URL the way WebFetch entries see it: http or https,
// no user information (a `user@` part can disguise where a request goes),
// the host lower-cased and IDNA-normalised.
func URLHost(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("the URL does not parse: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("only http and https URLs are matched, not %q", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("the URL carries user information (user@host), which is refused")
	}
	return normalHost(u.Hostname())
}

// MatchHost reports whether a WebFetch entry names host (already normalised
// by URLHost): the exact host, or with `*.` any host below it.
func (t *Typed) MatchHost(host string) bool {
	if t.Tool != ToolWebFetch || host == "" {
		return false
	}
	if t.wild {
		return strings.HasSuffix(host, "."+t.host)
	}
	return host == t.host
}

// MatchMCP reports whether an mcp__ entry names the MCP tool `tool`
// (mcp__<server>__<name>). The catch-all mcp__* names every tool; it
// allows nothing (see CatchAll) but escalates everything.
func (t *Typed) MatchMCP(tool string) bool {
	if t.Tool != ToolMCP {
		return false
	}
	if t.srv == "*" {
		return strings.HasPrefix(tool, "mcp__")
	}
	rest, ok := strings.CutPrefix(tool, "mcp__"+t.srv+"__")
	if !ok || rest == "" {
		return false
	}
	return t.wild || rest == t.name
}
