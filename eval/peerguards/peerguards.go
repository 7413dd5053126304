// Package peerguards reads the test corpora of other command guards — the
// commands each one's own tests say it blocks and allows — into one shape,
// so gitwarrant's hook can be measured against them (eval's
// TestPeerGuards; testdata/peerguards/README.md says where each corpus comes
// from and under which licence).
//
// Only command strings and the peer's expected verdict are kept, each with
// the file and line it was read from; none of a peer's code is.
package peerguards

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The verdicts a peer's tests expect.
const (
	Block = "block" // the peer refuses the command (deny, forbidden, blocked)
	Ask   = "ask"   // the peer asks a person first (prompt, not provably safe)
	Allow = "allow" // the peer lets the command run
)

// Case is one command a peer's tests give a verdict for.
type Case struct {
	Command string `json:"command"`
	Verdict string `json:"verdict"`
	// Context is what besides the command the peer's test set for the
	// verdict (a mode switched on, a working directory); empty when the
	// verdict is the peer's default one.
	Context string `json:"context,omitempty"`
	Source  string `json:"source"` // path:line in the peer's repository
}

// CustomRule marks the context of a case whose verdict comes from a rule
// the peer's test configured (a user's own rule), not from the peer.
const CustomRule = "custom rule written by the test"

// ByCustomRule says whether k's verdict is a rule its test configured.
func (k Case) ByCustomRule() bool { return strings.Contains(k.Context, CustomRule) }

// Skipped is a test call whose command or verdict could not be read
// faithfully from the test's text (a command built at run time), kept so
// the corpus says what it leaves out.
type Skipped struct {
	Source string `json:"source"`
	Why    string `json:"why"`
}

// Corpus is one peer's extracted cases with where they come from.
type Corpus struct {
	Peer       string    `json:"peer"`
	Repository string    `json:"repository"`
	Commit     string    `json:"commit"`
	License    string    `json:"license"`
	Paths      []string  `json:"paths"` // the files read
	Cases      []Case    `json:"cases"`
	Skipped    []Skipped `json:"skipped,omitempty"`
}

// Count returns how many cases have verdict v.
func (c *Corpus) Count(v string) int {
	n := 0
	for _, k := range c.Cases {
		if k.Verdict == v {
			n++
		}
	}
	return n
}

// Peers are the corpora in the order they are reported.
var Peers = []string{"destructive_command_guard", "claude-code-safety-net", "codex-execpolicy"}

// FileName is where peer's corpus lives inside a corpus folder.
func FileName(peer string) string { return peer + ".json" }

// ErrAbsent is returned by Load when a corpus folder holds no corpus.
var ErrAbsent = errors.New("no peer corpus")

// Load reads every peer's corpus from dir, in Peers order.
func Load(dir string) ([]*Corpus, error) {
	var out []*Corpus
	for _, p := range Peers {
		b, err := os.ReadFile(filepath.Join(dir, FileName(p)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, FileName(p)), ErrAbsent)
		}
		if err != nil {
			return nil, err
		}
		var c Corpus
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, FileName(p)), err)
		}
		out = append(out, &c)
	}
	return out, nil
}

// Write writes c into dir as indented JSON, one case a line group, so a
// diff of two extractions reads case by case.
func Write(dir string, c *Corpus) error {
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, FileName(c.Peer)), append(b, '\n'), 0o644)
}

// dedupe drops a case that repeats an earlier one's command, verdict and
// context (the same command asserted twice in one suite).
func dedupe(cs []Case) []Case {
	seen := map[string]bool{}
	return slices.DeleteFunc(cs, func(c Case) bool {
		k := c.Command + "\x00" + c.Verdict + "\x00" + c.Context
		if seen[k] {
			return true
		}
		seen[k] = true
		return false
	})
}

// shellJoin writes argv as one POSIX shell command line: each word that
// needs it single-quoted.
func shellJoin(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shellQuote(a))
	}
	return b.String()
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
