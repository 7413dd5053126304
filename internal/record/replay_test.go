package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/loops"
)

// TestReplayFlagsAVerdictTheLoopNeverGave forges a well-chained check
// entry whose verdict the committed loop would not give; --replay finds it.
func TestReplayFlagsAVerdictTheLoopNeverGave(t *testing.T) {
	dir, p := newRepo(t)
	if out, code := gw(t, dir, "new", "appeal", "--template", "insurance-appeal"); code != 0 {
		t.Fatalf("new: %s", out)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "loop")
	if out, code := gw(t, dir, "check", "appeal", "draft", "appeal letter"); code != 0 {
		t.Fatalf("check: %d %s", code, out)
	}
	data, _ := os.ReadFile(filepath.Join(p.LoopsDir(), "appeal.loop.md"))
	r := openT(t, p)
	_, err := r.Append(chain.Entry{Loop: "appeal", Kind: chain.KindCheck, Action: "change", Target: "accepting a settlement",
		Verdict: "allow", Rule: "allow change: forged", LoopBlob: loops.BlobID(data), Engine: loops.EngineVersion})
	if err != nil {
		t.Fatal(err)
	}
	xs, err := r.Replay()
	if err != nil || len(xs) != 2 {
		t.Fatalf("replay: %v %+v", err, xs)
	}
	if xs[0].Differs() || !xs[1].Differs() || xs[1].Now != "deny" {
		t.Fatalf("replay results %+v", xs)
	}
	out, code := gw(t, dir, "record", "verify", "--replay")
	if code != 1 || !strings.Contains(out, "replay differs at entry 2 ([appeal] recorded allow, replay gives deny") {
		t.Fatalf("verify --replay exit %d:\n%s", code, out)
	}
}
