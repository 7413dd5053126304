package gate

import "testing"

// Issue 12: an agent may not run amend or signers, nor make an amend
// signature with ssh-keygen, however the command is spelt
// (docs/signing.md#the-trust-model).
func TestProtectedSigning(t *testing.T) {
	e := newProtectEnv(t)
	deny := []string{
		"gitwarrant signers add eve@example.com eve.pub",
		"gitwarrant signers remove ada@example.com",
		"gitwarrant --dir . signers list && true",
		"sh -c 'gitwarrant signers add x y'",
		"gitwarrant amend deploy send 'push to release/*' --yes",
		"gitwarrant amend deploy never x --remove --key ~/.ssh/id_ed25519 --yes",
		"ssh-keygen -Y sign -n gitwarrant -f ~/.ssh/id_ed25519 entry",
		"ssh-keygen -Ysign -ngitwarrant -f k entry",
		"ssh-keygen -q -Y sign -f k -n 'git''warrant' entry",
		"/usr/bin/ssh-keygen -Y sign -n \"gitwarrant\" -f k < entry",
		"ssh-keygen -Y sign -n $NS -f k entry",
		"ssh-keygen -Y sign -n gitwarr`echo ant` -f k entry",
		"echo x | ssh-keygen -Y sign -n GITWARRANT -f k",
		"cat e | ssh-keygen -Y \"sign\" -n gitwarrant -f k",
	}
	for _, cmd := range deny {
		if why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd})); !denied {
			t.Errorf("%q: not denied (%q)", cmd, why)
		}
	}
	pass := []string{
		"gitwarrant diff main",
		"ssh-keygen -Y sign -n file -f k release.tar.gz",
		"ssh-keygen -y -f ~/.ssh/id_ed25519",
		"ssh-keygen -l -f key.pub",
	}
	for _, cmd := range pass {
		if why, denied := e.protected(e.call("Bash", map[string]any{"command": cmd})); denied {
			t.Errorf("%q denied: %s", cmd, why)
		}
	}
}
