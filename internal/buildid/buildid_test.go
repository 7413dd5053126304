package buildid

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestSelfIsGoToolBuildID: the id read in process is the one `go tool
// buildid` reads from the same test binary.
func TestSelfIsGoToolBuildID(t *testing.T) {
	got, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("Self() = %q, go tool buildid says %q", got, want)
	}
}

// TestReadRaw reads the form non-ELF binaries carry, and refuses a file
// with neither form.
func TestReadRaw(t *testing.T) {
	bin := append(bytes.Repeat([]byte{0}, 100), []byte("\xff Go build ID: \"abc/def\"\n \xff")...)
	if got, err := Read(bytes.NewReader(bin)); err != nil || got != "abc/def" {
		t.Fatalf("Read = %q, %v", got, err)
	}
	if got, err := Read(bytes.NewReader([]byte("#!/bin/sh\necho\n"))); err != ErrNone {
		t.Fatalf("a script: Read = %q, %v; want ErrNone", got, err)
	}
}
