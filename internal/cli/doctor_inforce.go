package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/install"
	"github.com/gitwarrant/gitwarrant/internal/loops"
	"github.com/gitwarrant/gitwarrant/internal/project"
	"github.com/gitwarrant/gitwarrant/internal/vouch"
)

// inForceChecks say which version of each loop is in force
// (docs/signing.md#only-a-signed-warrant-is-in-force): signed as it
// stands, an earlier signed version, or none; and, before signing is
// adopted, that any code the agent runs can rewrite the loops.
func inForceChecks(p *project.Project) []install.Check {
	st, err := vouch.New(p).State()
	if err != nil {
		return []install.Check{{Name: "signed warrant", Status: install.Fail, Detail: "the record's signed entries cannot be read: " + err.Error(),
			Fix: "run `gitwarrant record verify`; until it reads, no loop is in force"}}
	}
	if !st.Adopted {
		return []install.Check{{Name: "signed warrant", Status: install.Warn,
			Detail: "no signers: every loop is in force as it stands, so any code the agent runs (a test, a build script) can rewrite what it may do",
			Fix:    "add a signer: `gitwarrant signers add <you@example.com> ~/.ssh/id_ed25519_sk.pub --key ~/.ssh/id_ed25519_sk` (docs/signing.md#adopting-signing)"}}
	}
	var out []install.Check
	for _, pr := range st.Problems {
		out = append(out, install.Check{Name: "signed warrant", Status: install.Fail, Detail: pr, Fix: "see docs/signing.md#the-trust-root"})
	}
	if st.SignersNote != "" {
		out = append(out, install.Check{Name: "allowed_signers in force", Status: install.Warn, Detail: st.SignersNote, Fix: "review the change and run `gitwarrant bless`, or restore the signed file"})
	} else if st.SignersVersion != nil {
		out = append(out, install.Check{Name: "allowed_signers in force", Status: install.OK, Detail: "as it stands, " + st.SignersVersion.Describe()})
	}
	paths, _ := loops.LoopFiles(p.LoopsDir())
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), loops.FileSuffix)
		data, err := loops.ReadFile(path)
		if err != nil {
			continue // the loops check reports it
		}
		c := install.Check{Name: "loop " + name + " in force", Status: install.OK}
		switch v := st.Decide(name, data); {
		case v.InForce:
			c.Detail = "as it stands"
			if iv := st.InForce(name, data); iv != nil {
				c.Detail += ", " + iv.Describe()
			}
		default:
			c.Status, c.Detail = install.Warn, v.Note
			c.Fix = fmt.Sprintf("review the change, then `gitwarrant bless %s`; or restore the signed version", name)
		}
		out = append(out, c)
	}
	return out
}
