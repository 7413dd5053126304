package loops

import "testing"

func TestScreenDirection(t *testing.T) {
	w := &Warrant{
		Never: []Item{{Text: "force push"}, {Text: "pushing to main"}},
		Ask:   []Item{{Text: "make a payment"}},
	}
	for _, c := range []struct {
		texts []string
		want  Verdict
		hit   bool
	}{
		{[]string{"git push --force", "force push to main"}, Deny, true},
		{[]string{"git push origin main", "push to main"}, Deny, true},
		{[]string{"make"}, "", false}, // the reverse direction is not taken
		{[]string{"curl -d amount=5 https://pay.example/make-payment"}, Ask, true},
		{[]string{"go test ./..."}, "", false},
		{[]string{"git push origin feature", "push to feature"}, "", false},
	} {
		r, hit := Screen(w, c.texts)
		if hit != c.hit || r.Verdict != c.want {
			t.Errorf("Screen(%q) = %v %q, want %v %q", c.texts, hit, r.Verdict, c.hit, c.want)
		}
	}
}
