package loops

import (
	"reflect"
	"testing"
)

func TestFoldLookAlikes(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ascii lower-cased and collapsed", "  Wire\t\tFUNDS \n", "wire funds"},
		{"cyrillic i", "wіre funds", "wire funds"},
		{"cyrillic a e o p c", "арреаl со", "appeal co"},
		{"greek omicron alpha", "ѕеttlеmеnt οr αppeal", "settlement or appeal"},
		{"greek capitals fold to their own look-alike", "ΗΕΛΛΟ ΜΑΤΗ", "heλλo math"},
		{"full width", "ｗｉｒｅ　ｆｕｎｄｓ", "wire funds"},
		{"zero-width space", "wi\u200bre funds", "wire funds"},
		{"zero-width joiner and word joiner", "w\u200di\u2060re\ufeff funds", "wire funds"},
		{"soft hyphen", "wi\u00adre", "wire"},
		{"bidi override", "\u202ewire\u202c", "wire"},
		{"combining accent", "wi\u0301re", "wire"},
		{"precomposed accent", "wíre fùnds", "wire funds"},
		{"mathematical bold", "𝐰𝐢𝐫𝐞", "wire"},
		{"full case folding", "STRAẞE", "strasse"},
		{"dotted capital I", "İNSURER", "insurer"},
		{"curly apostrophe", "insurer’s", "insurer's"},
		{"en dash", "rm –rf", "rm -rf"},
		{"control characters dropped", "wi\x00re\x7f", "wire"},
		{"han text kept", "发送 邮件", "发送 邮件"},
		{"devanagari marks kept", "भेजें", "भेजें"},
		{"cherokee folds to capitals", "ꮷ Ꮷ ᏸ", "Ꮷ Ꮷ Ᏸ"},
		{"empty", " \u200b ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fold(tt.in); got != tt.want {
				t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Fold(Fold(tt.in)); again != Fold(tt.in) {
				t.Errorf("Fold is not idempotent on %q: %q then %q", tt.in, Fold(tt.in), again)
			}
		})
	}
}

func TestSameWord(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"quotes", "quote", true},
		{"contacting", "contact", true},
		{"deploying", "deploy", true},
		{"pushed", "push", true},
		{"wiring", "wire", true},
		{"wired", "wiring", true},
		{"quoting", "quotes", true},
		{"policies", "policy", true},
		{"insurer's", "insurer", true},
		{"insurers'", "insurers", true},
		{"shipped", "ship", true},
		{"running", "run", true},
		{"addresses", "address", true},
		{"Contacting", "CONTACT", true},
		{"ѕend", "send", true},
		// Too little would remain, so these stay distinct.
		{"bus", "bu", false},
		{"sing", "s", false},
		{"red", "r", false},
		{"class", "clas", false},
		{"send", "sent", false},
		{"email", "mail", false},
		{"draft", "drafted", true},
		{"draft", "craft", false},
	}
	for _, tt := range tests {
		if got := SameWord(tt.a, tt.b); got != tt.want {
			t.Errorf("SameWord(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := SameWord(tt.b, tt.a); got != tt.want {
			t.Errorf("SameWord(%q, %q) = %v, want %v (not symmetric)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestContentWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"status email to the team", []string{"status", "email", "team"}},
		{"Anything addressed to the insurer", []string{"addressed", "insurer"}},
		{"anything", nil},
		{"rm -rf build/", []string{"rm", "rf", "build"}},
		{"the insurer's letter", []string{"insurer's", "letter"}},
		{"send it to them", []string{"send"}},
	}
	for _, tt := range tests {
		if got := ContentWords(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ContentWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAlternatives(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"secrets, tokens, or passwords", []string{"secrets", "tokens", "passwords"}},
		{"accepting or rejecting a settlement", []string{"accepting", "rejecting a settlement"}},
		{"terms and conditions", []string{"terms", "conditions"}},
		{"appeal letter", []string{"appeal letter"}},
		{"Orders AND Invoices", []string{"orders", "invoices"}},
		{"or", []string{"or"}},
		{"src/*, docs/*", []string{"src/*", "docs/*"}},
		{"x and/or y", []string{"x and/or y"}},
		{",", []string{","}},
	}
	for _, tt := range tests {
		if got := Alternatives(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Alternatives(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClauses(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"status email to the team; rm -rf build", []string{"status email to the team", "rm -rf build"}},
		{"status email to the team and also wire funds", []string{"status email to the team", "also wire funds"}},
		{"make && make install || echo fail | tee log", []string{"make", "make install", "echo fail", "tee log"}},
		{"build then deploy plus notify", []string{"build", "deploy", "notify"}},
		{"line one\nline two", []string{"line one", "line two"}},
		{"sleep 1 & rm -rf /", []string{"sleep 1", "rm -rf /"}},
		{"R&D report", []string{"r&d report"}},
		{"echo $(curl evil.sh) done", []string{"echo $", "curl evil.sh", "done"}},
		{"echo `rm -rf /`", []string{"echo", "rm -rf /"}},
		{"diff <(cat a) notes (second pass)", []string{"diff <", "cat a", "notes (second pass)"}},
		{"appeal letter", []string{"appeal letter"}},
		{"thenceforth planned", []string{"thenceforth planned"}},
		{";;", []string{";;"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := Clauses(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Clauses(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMatchCautious(t *testing.T) {
	tests := []struct {
		pattern, target string
		want            bool
	}{
		{"contacting the insurer", "contact the insurer by phone", true},
		{"contacting the insurer", "appeal email to the insurer", false},
		{"accepting or rejecting a settlement", "accepting a settlement", true},
		{"accepting or rejecting a settlement", "reject the settlement offer", true},
		{"wire funds", "wire funds to account 42", true},
		{"wire funds", "funds", true}, // target inside pattern: ambiguity escalates
		{"wire funds", "wіre funds", true},
		{"wire funds", "ｗｉｒｅ funds", true},
		{"wire funds", "wi\u200bre funds", true},
		{"wire funds", "WIRE-FUNDS", true},
		{"wire funds", "wiring the funds", true},
		{"wire funds", "draft the appeal letter", false},
		{"rm", "format the disk", false},
		{"anything", "draft the appeal letter", true},
		{"anything", "", true},
		{"secrets, tokens, or passwords", "print the api token", true},
		{"*.env", "config/prod.env", true},
		{"*.env", "prod.env.example", false},
		{"rm -rf *", "run rm -rf * now", true},
		{"deploy*", "deploy to production", true},
		{"production", "status email to the team and deploy production", true},
		{"quote", "send the quotes", true},
		{"contacting the insurer", "", false},
	}
	for _, tt := range tests {
		if got := MatchCautious(tt.pattern, tt.target); got != tt.want {
			t.Errorf("MatchCautious(%q, %q) = %v, want %v", tt.pattern, tt.target, got, tt.want)
		}
	}
}

func TestMatchStrict(t *testing.T) {
	tests := []struct {
		pattern, target string
		want            bool
	}{
		{"status email to the team", "status email to the team", true},
		{"status email to the team", "Send the STATUS email to the team today", true},
		{"status email to the team", "email", false},
		{"status email to the team", "email to the team", false},
		{"appeal letter", "letter of appeal", true},
		{"appeal letter", "appeal letters", true},
		{"appeal letter", "letter", false},
		{"quote", "quotes", true},
		{"status email to the team", "status email to the team; rm -rf build", false},
		{"status email to the team", "status email to the team and also wire funds", false},
		{"status email to the team", "status email to the team and marketing", false},
		{"status email to the team and marketing", "status email to the team and marketing", true},
		{"status email to the team and marketing", "marketing", true},
		{"git log*", "git log --oneline", true},
		{"git log*", "git log --oneline; rm -rf /", false},
		{"git log *", "run git log", false},
		{"git log * | head", "git log -5 | head", true},
		{"git log * | head", "git log -5 | head; rm -rf /", false},
		{"deploy then notify", "deploy then notify", true},
		{"deploy then notify", "deploy", false},
		{"anything", "whatever you like", true},
		{"this and that", "wire funds", false},
		{"appeal letter", "", false},
		{"appeal letter", "\u200b", false},
	}
	for _, tt := range tests {
		if got := MatchStrict(tt.pattern, tt.target); got != tt.want {
			t.Errorf("MatchStrict(%q, %q) = %v, want %v", tt.pattern, tt.target, got, tt.want)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*", "anything at all", true},
		{"a*c", "abc", true},
		{"a*c", "abcd", false},
		{"*.md", "readme.md", true},
		{"*.md", "readme.mdx", false},
		{"src/*/main.go", "src/a b/main.go", true},
		{"a?c", "abc", false}, // only * is special
		{"a?c", "a?c", true},
		{"**x", "yyx", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXcYb", false},
	}
	for _, tt := range tests {
		if got := globMatch(tt.pattern, tt.s); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.pattern, tt.s, got, tt.want)
		}
	}
}
