package term

import (
	"strings"
	"testing"
)

func TestColourOnlyOnATerminalAndNeverWithNoColor(t *testing.T) {
	tests := []struct {
		name    string
		s       Streams
		colored bool
	}{
		{"terminal", Streams{OutTTY: true}, true},
		{"terminal with NO_COLOR", Streams{OutTTY: true, NoColor: true}, false},
		{"pipe", Streams{OutTTY: false}, false},
	}
	for _, tt := range tests {
		got := tt.s.Style().Red("deny")
		if has := strings.Contains(got, "\x1b["); has != tt.colored {
			t.Errorf("%s: Red(%q) = %q, coloured %v, want %v", tt.name, "deny", got, has, tt.colored)
		}
	}
}

func TestSystemHonoursNoColor(t *testing.T) {
	env := map[string]string{"NO_COLOR": "1"}
	if s := System(func(k string) string { return env[k] }); !s.NoColor {
		t.Fatal("NO_COLOR=1 did not turn colour off")
	}
	if s := System(func(string) string { return "" }); s.NoColor {
		t.Fatal("colour is off without NO_COLOR or TERM=dumb")
	}
}
