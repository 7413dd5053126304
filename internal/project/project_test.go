package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func mkdirs(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindOrder(t *testing.T) {
	root := t.TempDir()
	a, b, both, docket := filepath.Join(root, "a"), filepath.Join(root, "b"), filepath.Join(root, "both"), filepath.Join(root, "docket")
	mkdirs(t, filepath.Join(a, DirName), filepath.Join(a, "deep", "er"), filepath.Join(b, DirName),
		filepath.Join(both, DirName), filepath.Join(both, LegacyDirName), filepath.Join(docket, LegacyDirName))
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	tests := []struct {
		name    string
		o       Options
		wantDir string
		legacy  bool
	}{
		{"walk up", Options{Cwd: filepath.Join(a, "deep", "er")}, filepath.Join(a, DirName), false},
		{"--dir beats env", Options{Dir: b, Env: env(map[string]string{"GITWARRANT_DIR": a}), Cwd: a}, filepath.Join(b, DirName), false},
		{"GITWARRANT_DIR beats DOCKET_DIR", Options{Env: env(map[string]string{"GITWARRANT_DIR": b, "DOCKET_DIR": docket}), Cwd: a}, filepath.Join(b, DirName), false},
		{"DOCKET_DIR", Options{Env: env(map[string]string{"DOCKET_DIR": docket}), Cwd: a}, filepath.Join(docket, LegacyDirName), true},
		{"--dir names the project dir itself", Options{Dir: filepath.Join(b, DirName)}, filepath.Join(b, DirName), false},
		{".gitwarrant wins over .docket", Options{Cwd: both}, filepath.Join(both, DirName), false},
		{"a docket project", Options{Cwd: docket}, filepath.Join(docket, LegacyDirName), true},
	}
	for _, tt := range tests {
		p, err := Find(tt.o)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if p.Dir != tt.wantDir || p.Legacy != tt.legacy {
			t.Errorf("%s: got %s (legacy %v), want %s (legacy %v)", tt.name, p.Dir, p.Legacy, tt.wantDir, tt.legacy)
		}
	}
}

func TestFindErrorsSayWhatToDo(t *testing.T) {
	root := t.TempDir()
	_, err := Find(Options{Cwd: root})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("walk up from an empty dir: %v, want ErrNotFound", err)
	}
	_, err = Find(Options{Dir: filepath.Join(root, "nope"), Cwd: root})
	if err == nil || !contains(err.Error(), "--dir") || !contains(err.Error(), "gitwarrant init") {
		t.Fatalf("bad --dir: %v, want an error naming --dir and `gitwarrant init`", err)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
