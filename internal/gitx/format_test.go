package gitx

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiscoverRefusesUnsupportedFormats: a SHA-256 repository made by git
// itself, and a reftable one (written as config: older git cannot make
// one), are refused with the setting named; SHA-1 ones, explicit or not,
// are not.
func TestDiscoverRefusesUnsupportedFormats(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	sha256 := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--object-format=sha256", sha256).CombinedOutput(); err != nil {
		t.Fatalf("git init --object-format=sha256: %v\n%s", err, out)
	}
	_, err := Discover(filepath.Join(sha256))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "extensions.objectFormat = sha256") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("sha256 repository: err = %v", err)
	}

	for _, c := range []struct {
		config string
		want   string // "" means supported
	}{
		{"[core]\n\trepositoryformatversion = 1\n[extensions]\n\trefStorage = reftable\n", "extensions.refStorage = reftable"},
		{"[extensions]\n\tobjectformat = SHA256\n", "extensions.objectFormat = SHA256"},
		{"[extensions]\n\tobjectFormat = sha1\n\trefStorage = files\n", ""},
		{"[core]\n\tbare = false\n", ""},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(c.config), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Discover(dir)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: refused: %v", c.config, err)
		case c.want != "" && (!errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: err = %v, want %q", c.config, err, c.want)
		}
	}
}
