package loops

// confusable maps a non-ASCII letter or punctuation mark that renders like
// an ASCII one to that ASCII character, so a disguised hard stop still
// matches its never entry (docs/loop-format.md#the-warrant, look-alike folding).
//
// Source: Unicode Technical Standard #39 confusables.txt
// (https://www.unicode.org/Public/security/latest/confusables.txt),
// hand-picked: the Cyrillic, Greek, Armenian, Latin-extension and
// small-capital letters that are visually identical or near-identical to a
// Latin letter, in both cases where the upper and lower forms differ in
// shape (Greek Η looks like H, η like n: the table is applied before and
// after case folding, so each form maps to its own look-alike). Full-width
// forms, mathematical alphanumerics, ligatures and superscripts are not
// listed because NFKC compatibility decomposition already maps them.
//
// Only non-ASCII characters are mapped: ASCII look-alikes such as 0/o or
// 1/l are real, distinct text in file names and commands, and conflating
// them would let an allow entry cover targets its author never wrote.
//
// It is a switch, not a map, so the table is immutable.
func confusable(r rune) (rune, bool) {
	switch r {
	case 'а', 'А', 'α', 'Α', 'ɑ', 'ᴀ':
		return 'a', true
	case 'в', 'В', 'ь', 'Ь', 'β', 'Β', 'ʙ':
		return 'b', true
	case 'с', 'С', 'ϲ', 'Ϲ', 'ᴄ':
		return 'c', true
	case 'ԁ', 'Ԁ':
		return 'd', true
	case 'е', 'Е', 'ё', 'Ё', 'ε', 'Ε', 'ҽ':
		return 'e', true
	case 'ɡ', 'ց', 'ǥ':
		return 'g', true
	case 'һ', 'Һ', 'н', 'Н', 'Η', 'հ':
		return 'h', true
	case 'і', 'І', 'ї', 'Ї', 'ι', 'Ι', 'ı', 'ɩ':
		return 'i', true
	case 'ј', 'Ј', 'ϳ', 'ȷ':
		return 'j', true
	case 'к', 'К', 'κ', 'Κ', 'ᴋ':
		return 'k', true
	case 'ӏ', 'Ӏ', 'ⅼ':
		return 'l', true
	case 'м', 'М', 'Μ', 'ᴍ':
		return 'm', true
	case 'η', 'ո', 'Ν', 'п':
		return 'n', true
	case 'о', 'О', 'ο', 'Ο', 'σ', 'օ', 'ᴏ':
		return 'o', true
	case 'р', 'Р', 'ρ', 'Ρ', 'ᴘ':
		return 'p', true
	case 'ԛ', 'Ԛ':
		return 'q', true
	case 'г', 'ᴦ', 'ʀ':
		return 'r', true
	case 'ѕ', 'Ѕ', 'ꜱ':
		return 's', true
	case 'т', 'Т', 'τ', 'Τ', 'ᴛ':
		return 't', true
	case 'μ', 'υ', 'ս', 'ᴜ':
		return 'u', true
	case 'ν', 'ѵ', 'Ѵ', 'ᴠ':
		return 'v', true
	case 'ԝ', 'Ԝ', 'ω', 'ѡ', 'ᴡ':
		return 'w', true
	case 'х', 'Х', 'χ', 'Χ':
		return 'x', true
	case 'у', 'У', 'ү', 'Ү', 'γ', 'Υ':
		return 'y', true
	case 'Ζ', 'ᴢ':
		return 'z', true
	case '‘', '’', '‚', '‛', '′', 'ʼ', 'ʹ', '´':
		return '\'', true
	case '“', '”', '„', '‟', '″':
		return '"', true
	case '‐', '‑', '‒', '–', '—', '―', '−', '⁃':
		return '-', true
	case '⁄', '∕':
		return '/', true
	}
	return r, false
}
