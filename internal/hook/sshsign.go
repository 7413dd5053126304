package hook

import "strings"

// signsAmends reports whether a command runs `ssh-keygen -Y sign` for the
// gitwarrant namespace: the signature on an amend is a person's, so an
// agent making one with the person's key (through the agent socket) would
// forge it (docs/signing.md#the-trust-model). A sign whose namespace
// cannot be read as a literal other than gitwarrant is denied too. words
// are the command's words after unquoting and lower-casing (shellWords);
// raw is the command as written, for expansions.
func signsAmends(raw string, words []string) bool {
	for i, w := range words {
		if !isSSHKeygen(w) {
			continue
		}
		rest := words[i+1:]
		if !keygenSigns(rest) {
			continue
		}
		ns, ok := keygenNamespace(rest)
		if !ok || strings.ContainsAny(raw, "$`") || strings.Contains(ns, "gitw") {
			return true
		}
	}
	return false
}

func isSSHKeygen(w string) bool {
	base := w[strings.LastIndex(w, "/")+1:]
	base = strings.TrimSuffix(base, ".exe")
	return base == "ssh-keygen"
}

// keygenSigns finds `-Y sign` (or `-Ysign`, or -Y grouped with other flags).
func keygenSigns(rest []string) bool {
	for i, w := range rest {
		if !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "--") {
			continue
		}
		if j := strings.IndexByte(w, 'y'); j > 0 {
			op := w[j+1:]
			if op == "" && i+1 < len(rest) {
				op = rest[i+1]
			}
			if strings.HasPrefix(op, "sign") {
				return true
			}
		}
	}
	return false
}

// keygenNamespace returns the -n value; ok is false when there is none.
func keygenNamespace(rest []string) (string, bool) {
	ns, ok := "", false
	for i, w := range rest {
		if !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "--") {
			continue
		}
		if j := strings.IndexByte(w, 'n'); j > 0 {
			if v := w[j+1:]; v != "" {
				ns, ok = v, true
			} else if i+1 < len(rest) {
				ns, ok = rest[i+1], true
			}
		}
	}
	return ns, ok
}
