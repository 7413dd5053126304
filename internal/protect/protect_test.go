package protect

import "testing"

func TestHookManagerFile(t *testing.T) {
	for p, want := range map[string]bool{
		"lefthook.yml": true, "/r/.lefthook.yaml": true, "lefthook-local.yml": true,
		".pre-commit-config.yaml": true, ".husky/pre-commit": true, "/r/.HUSKY/_/h": true,
		"src/lefthook.go": false, "README.md": false, "pre-commit": false,
	} {
		if got := HookManagerFile(p); got != want {
			t.Errorf("HookManagerFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestHookSwitch(t *testing.T) {
	for _, c := range []struct {
		name, value string
		want        bool
	}{
		{"HUSKY", "0", true}, {"HUSKY", "1", false}, {"LEFTHOOK", "0", true},
		{"SKIP", "gitwarrant-record", true}, {"SKIP", "flake8", false},
		{"GIT_CONFIG_COUNT", "1", true}, {"GIT_DIR", "x", true}, {"FOO", "0", false},
	} {
		if _, got := HookSwitch(c.name, c.value); got != c.want {
			t.Errorf("HookSwitch(%s=%s) = %v, want %v", c.name, c.value, got, c.want)
		}
	}
}

func TestCodeKey(t *testing.T) {
	for k, want := range map[string]bool{
		"core.hooksPath": true, "core.sshCommand": true, "alias.st": true, "pager.log": true,
		"diff.x.textconv": true, "filter.lfs.clean": true, "include.path": true,
		"includeIf.gitdir:~/w/.path": true, "remote.origin.receivepack": true,
		"user.name": false, "remote.origin.url": false, "push.default": false,
	} {
		if got := CodeKey(k); got != want {
			t.Errorf("CodeKey(%q) = %v, want %v", k, got, want)
		}
	}
}

func TestBinaryName(t *testing.T) {
	for b, want := range map[string]bool{
		"gitwarrant": true, "/usr/local/bin/gitwarrant": true, "GITWARRANT.EXE": true,
		"gitwarrant-linux-amd64": true, "docket": true, "git": false, "gitwarranty": false,
	} {
		if got := BinaryName(b); got != want {
			t.Errorf("BinaryName(%q) = %v, want %v", b, got, want)
		}
	}
}
