package shell

import "testing"

// TestSedRuns: a substitution is read as one whatever letters its parts
// hold; the e, w and W commands and the s command's e and w flags run or
// write, however they are written.
func TestSedRuns(t *testing.T) {
	for script, want := range map[string]bool{
		"s/old/new/g":             false,
		"s/we/ew/":                false,
		"s|/usr/bin|/opt/bin|g":   false,
		"1,5d":                    false,
		"/^#/d;s/a/b/2":           false,
		"$!N;P;D":                 false,
		"y/abc/xyz/":              false,
		"/start/,/end/{s/x/y/;p}": false,
		"10q":                     false,
		":a;N;$!ba;s/\\n/ /g":     false,
		"s/a/b/w out.txt":         true,
		"s/a/b/e":                 true,
		"s/a/b/ge":                true,
		"s/a/b/;w out":            true,
		"1e rm -rf ~":             true,
		"e":                       true,
		"$W /tmp/x":               true,
		"/x/!e id":                true,
		"s/a/b":                   true, // unterminated: cannot be read
		"s/a/b/gx":                true, // unknown flag
		"k":                       true, // unknown command
		"s/a\\/w/b/":              false,
		"s/a/b/\nw x":             true,
		"1{\ne date\n}":           true,
		"a hello w world":         false,
		"/re/I,+3 s/a/b/":         false,
	} {
		if got := SedRuns(script); got != want {
			t.Errorf("SedRuns(%q) = %v, want %v", script, got, want)
		}
	}
}
