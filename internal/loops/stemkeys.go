package loops

// StemKeys returns the stem candidates of the folded word s as strings
// (the word itself, and the forms light stemming allows). Two words are
// SameWord exactly when their StemKeys share a string, so callers that
// compare one word against many (routing, see internal/route) can index
// the keys in a map instead of calling SameWord pairwise.
func StemKeys(s string) []string {
	w := newWord(Fold(s))
	out := make([]string, 0, w.k)
	for _, st := range w.stems[:w.k] {
		k := w.text[:st.n]
		if st.add != 0 {
			k += string(rune(st.add))
		}
		out = append(out, k)
	}
	return out
}
