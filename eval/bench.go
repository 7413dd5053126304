package eval

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteHonestBench writes what bench/honest.sh replays: each fixture of the
// honest corpus (eval/corpus/honest.jsonl) as a git repository under
// dir/<fixture>, without gitwarrant's files (the build measured writes them
// with `init` and `new`), and one hook payload per call as
// dir/payloads/<id>.<fixture>.json, whose cwd is that repository.
func WriteHonestBench(dir string) error {
	calls, err := readCorpus("honest.jsonl")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "payloads"), 0o755); err != nil {
		return err
	}
	replays := map[string]*replay{}
	for _, c := range calls {
		r := replays[c.Fixture]
		if r == nil {
			r = &replay{root: filepath.Join(dir, c.Fixture), home: filepath.Join(dir, "home")}
			if err := r.repository(c.Fixture); err != nil {
				return err
			}
			replays[c.Fixture] = r
		}
		name := fmt.Sprintf("%s.%s.json", c.ID, c.Fixture)
		if err := os.WriteFile(filepath.Join(dir, "payloads", name), r.payload(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}
