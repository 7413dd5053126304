package hooks

import (
	"os/exec"
	"strings"
	"testing"
)

// Each script is valid POSIX sh, carries the placeholder once, and install
// substitutes only it (quoted), so the file here is what lands in a clone.
func TestShimsAreTheFilesWithOnlyThePathFilledIn(t *testing.T) {
	for _, h := range append(append([]string(nil), Names...), Optional...) {
		raw, _ := Shim(h, "@")
		if strings.Count(preCommit+commitMsg+prePush, binPlaceholder) != 3 {
			t.Fatal("each script must carry the placeholder exactly once")
		}
		got, ok := Shim(h, "/opt/it's here/gitwarrant")
		if !ok {
			t.Fatalf("no shim for %s", h)
		}
		want := strings.Replace(raw, "'@'", `'/opt/it'\''s here/gitwarrant'`, 1)
		if got != want {
			t.Errorf("%s: more than the path changed", h)
		}
		if sh, err := exec.LookPath("sh"); err == nil {
			cmd := exec.Command(sh, "-n")
			cmd.Stdin = strings.NewReader(got)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s is not valid sh: %v\n%s", h, err, out)
			}
		}
		if !strings.Contains(got, "gitwarrant hook "+h) {
			t.Errorf("%s does not run gitwarrant hook %s", h, h)
		}
	}
	if _, ok := Shim("post-merge", ""); ok {
		t.Error("a shim for a hook gitwarrant does not wire")
	}
}
