package shell

import "sync"

// gitOptExtra adds options of git releases newer than the one
// gitopts_table.go was generated from. An option in either table but not
// in the git that runs makes some prefixes look ambiguous here that are
// not there (the call is opaque); an option of a newer git missing from
// both makes its prefix unknown here (opaque too). "name>target" is an
// alias. See docs/shell.md#git.
var gitOptExtra = sync.OnceValue(func() map[string][2]string {
	return map[string][2]string{
		"push":   {"branches>all", ""},
		"config": {"all! regexp! value= url= show-names append comment= includes no-includes", ""},
		"clone":  {"revision= ref-format=", ""},
		"fetch":  {"porcelain", ""},
		"gc":     {"expire-to= max-cruft-size= detach", ""},
		"commit": {"fixup=", ""},
	}
})
