package eval

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/amend"
	"github.com/gitwarrant/gitwarrant/internal/chain"
	"github.com/gitwarrant/gitwarrant/internal/ci"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/gitwarrant/gitwarrant/internal/sign"
)

// gitgatePRs is how many pull requests the suite generates.
var gitgatePRs = 5200

// Gitgate sizes and seeds.
const (
	// gitgateMainLen is the commits on main; pull requests fork from any.
	gitgateMainLen = 6
	gitgateSeedOne = 0x91a7_e5ee_d000_0013
	gitgateSeedTwo = 0x0c1_9a7e_5eed_0013
	gitgateTS      = "2026-01-02T03:04:05.000Z"
)

// Gitgate is the CI-gate suite (docs/ci.md): thousands of generated pull
// requests, written into one real repository with `git fast-import` and run
// through the gate in process (internal/ci). Each is a mix of warrant
// changes of every kind — widenings signed or not, narrowings, unrelated
// files, renames, `extends` changes, signer changes — amends that are
// forged, replayed into another chain or position, signed by a signer only
// head lists, or covering another entry, every kind of chain tamper and
// pins of absent heads, on bases that moved on after the fork. The
// generator knows each one's truth; the gate must agree: no unsigned
// widening and no broken chain passes, and no honest pull request fails.
// Signatures are made once, up front (a signature covers its own chain
// position, so each signed amend is the first entry of a chain of its own).
func Gitgate() (*Suite, error) {
	s := newSuite("gitgate", "no pull request with an unsigned widening, a forged, replayed, head-signed or misdirected amend, a broken chain or an absent pinned head passes `gitwarrant ci`; no honest pull request (signed widenings, narrowings, unrelated changes, honest record growth, a base that moved on) fails")
	for _, tool := range []string{"git", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			s.Pending = "needs " + tool + " on PATH"
			return s, nil
		}
	}
	dir, err := os.MkdirTemp("", "gitwarrant-eval-gitgate-")
	if err != nil {
		return nil, fmt.Errorf("make a temp dir: %w; check TMPDIR", err)
	}
	defer os.RemoveAll(dir)
	g, err := newGitgate(dir)
	if err != nil {
		return nil, err
	}
	r := newRand(gitgateSeedOne, gitgateSeedTwo)
	if err := g.build(r); err != nil {
		return nil, err
	}
	repo, err := gitx.Open(g.repo)
	if err != nil {
		return nil, err
	}
	// one `git cat-file --batch` serves every run (ci.Run leaves a batch
	// it did not start running)
	if repo.StartBatch() {
		defer repo.StopBatch()
	}
	tip := g.mainSHA[len(g.mainSHA)-1]
	for i, pr := range g.prs {
		rep, err := ci.Run(repo, ci.Options{Base: tip, Head: g.prSHA[i]})
		if err != nil {
			return nil, fmt.Errorf("pull request %d (%s): %v", i, pr.describe(), err)
		}
		passed := rep.OK()
		ex := Example{Input: pr.describe(), Got: rep.Verdict(), Note: strings.Join(pr.bad, "; ")}
		if pr.honest() {
			ex.Note = "honest: " + strings.Join(pr.ops, ", ")
		}
		s.Check(passed == pr.honest(), ex)
		for _, k := range pr.kinds {
			s.Count(k, 1, 0)
		}
		if pr.honest() {
			s.Count("honest pull requests (must pass)", 1, 0)
			s.NearOnce("honest "+fmt.Sprint(len(pr.ops)), len(pr.ops), ex)
		} else {
			s.Count("dishonest pull requests (must fail)", 1, 0)
			if len(pr.bad) == 1 {
				s.NearOnce("bad "+pr.bad[0], 1, ex)
			}
		}
	}
	return s, nil
}

// ggLoop is a generated loop file.
type ggLoop struct {
	name, extends, brief string
	lists                map[string][]string
	denyExamples         []string // `examples: deny:` calls the warrant must deny
}

var ggListOrder = []string{"read", "draft", "change", "send", "ask", "never"}

func (l *ggLoop) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: %s\ndescription: the %s loop\n", l.name, l.name)
	if l.extends != "" {
		fmt.Fprintf(&b, "extends: %s\n", l.extends)
	}
	any := false
	for _, k := range ggListOrder {
		if len(l.lists[k]) > 0 {
			if !any {
				b.WriteString("warrant:\n")
				any = true
			}
			fmt.Fprintf(&b, "  %s:\n", k)
			for _, e := range l.lists[k] {
				fmt.Fprintf(&b, "    - %s\n", e)
			}
		}
	}
	if len(l.denyExamples) > 0 {
		b.WriteString("examples:\n  deny:\n")
		for _, e := range l.denyExamples {
			fmt.Fprintf(&b, "    - %s\n", e)
		}
	}
	fmt.Fprintf(&b, "---\n# Brief\n%s\n", l.brief)
	return b.String()
}

func (l *ggLoop) clone() *ggLoop {
	c := &ggLoop{name: l.name, extends: l.extends, brief: l.brief, lists: map[string][]string{}, denyExamples: slices.Clone(l.denyExamples)}
	for k, v := range l.lists {
		c.lists[k] = append([]string(nil), v...)
	}
	return c
}

// ggState is a tree: loops, signers, chains (lines) and other files.
type ggState struct {
	loops   map[string]*ggLoop
	signers string
	chains  map[string][]string // writer → lines (single file)
	folders map[string][]string // writer → lines (folder of segments of 4)
	files   map[string]string
}

func (st *ggState) clone() *ggState {
	c := &ggState{loops: map[string]*ggLoop{}, signers: st.signers, chains: map[string][]string{}, folders: map[string][]string{}, files: map[string]string{}}
	for k, v := range st.loops {
		c.loops[k] = v.clone()
	}
	for k, v := range st.chains {
		c.chains[k] = append([]string(nil), v...)
	}
	for k, v := range st.folders {
		c.folders[k] = append([]string(nil), v...)
	}
	for k, v := range st.files {
		c.files[k] = v
	}
	return c
}

// tree is every path → content of a state.
func (st *ggState) tree() map[string]string {
	t := map[string]string{}
	for n, l := range st.loops {
		t[".gitwarrant/loops/"+n+".loop.md"] = l.render()
	}
	t[".gitwarrant/allowed_signers"] = st.signers
	for w, ls := range st.chains {
		t[".gitwarrant/record/"+w+".jsonl"] = joinLines(ls)
	}
	for w, ls := range st.folders {
		for from := 1; from <= len(ls); from += 4 {
			to := min(from+3, len(ls))
			t[fmt.Sprintf(".gitwarrant/record/%s/%09d-%09d.jsonl", w, from, to)] = joinLines(ls[from-1 : to])
		}
	}
	for p, c := range st.files {
		t[p] = c
	}
	return t
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// ggPR is one generated pull request and its truth.
type ggPR struct {
	fork  int // the main commit it forks from
	state *ggState
	ops   []string
	kinds []string
	bad   []string // why it must fail; empty when honest
	// deleteSegment removes one sealed segment file from head's tree.
	deleteSegment string
	pin           string // a Warrant-Head trailer for the last commit
}

func (p *ggPR) honest() bool { return len(p.bad) == 0 }

func (p *ggPR) describe() string {
	return fmt.Sprintf("fork at main~%d: %s", gitgateMainLen-1-p.fork, strings.Join(p.ops, ", "))
}

// ggLegacy is a loop file main breaks and later fixes.
const ggLegacy = ".gitwarrant/loops/legacy.loop.md"

// ggKey is one signed-amend pool key.
type ggKey struct{ loop, list, op, pattern string }

type gitgate struct {
	dir, repo string
	ada, eve  sign.Key
	adaLine   string
	eveLine   string
	// signed amend lines, made once: by ada (the base's signer) and by eve
	// (a signer only head lists).
	signed, byEve map[ggKey]string
	main          []*ggState
	mainSHA       []string
	prs           []*ggPR
	prSHA         []string
}

// Entry pools: widenings add these, narrowings add to the holding lists.
var (
	ggAllowPool = map[string][]string{
		"read":   {"state insurance regulations", "the wiki", "the billing logs"},
		"draft":  {"release notes", "a reply to the vendor"},
		"change": {"the version file", "the docs folder"},
		"send":   {"push to release branches", "a status email to the team"},
	}
	// ggTypedPool: typed entries (docs/typed-entries.md) a pull request
	// adds to an allow list; deploy holds Edit(src/**) at the base, which a
	// pull request may remove.
	ggTypedPool = map[string][]string{
		"read":   {"Read(src/**)", "WebSearch"},
		"change": {"Edit(docs/**)", "Bash(npm test)"},
	}
	ggHoldPool = map[string][]string{
		"ask":   {"rotate the signing key", "change the billing plan"},
		"never": {"delete the production database", "disable the audit log"},
	}
)

func newGitgate(dir string) (*gitgate, error) {
	g := &gitgate{dir: dir, repo: filepath.Join(dir, "repo"), signed: map[ggKey]string{}, byEve: map[ggKey]string{}}
	for _, k := range []string{"ada", "eve"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", k, "-f", filepath.Join(dir, k)).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ssh-keygen: %v: %s", err, out)
		}
	}
	g.ada, g.eve = sign.Key(filepath.Join(dir, "ada")), sign.Key(filepath.Join(dir, "eve"))
	line := func(who string, k sign.Key) (string, error) {
		pk, err := k.PublicKey()
		if err != nil {
			return "", err
		}
		return sign.SignerLine(who+"@example.com", pk, "")
	}
	var err error
	if g.adaLine, err = line("ada", g.ada); err != nil {
		return nil, err
	}
	if g.eveLine, err = line("eve", g.eve); err != nil {
		return nil, err
	}
	// The pool of amends: every allow entry added to each loop, every held
	// entry removed from deploy, the new loop's entries, eve's signer line.
	var keys []ggKey
	for _, l := range []string{"deploy", "wide", "child", "fresh", "legacy"} {
		for _, list := range []string{"read", "draft", "change", "send"} {
			for _, e := range ggAllowPool[list] {
				keys = append(keys, ggKey{l, list, amend.OpAdd, e})
			}
		}
	}
	for _, list := range []string{"ask", "never"} {
		for _, e := range ggHoldPool[list] {
			keys = append(keys, ggKey{"deploy", list, amend.OpRemove, e})
		}
	}
	for _, l := range []string{"deploy", "wide", "child"} {
		for _, list := range []string{"read", "change"} {
			for _, e := range ggTypedPool[list] {
				keys = append(keys, ggKey{l, list, amend.OpAdd, e})
			}
		}
	}
	keys = append(keys, ggKey{"allowed_signers", "allowed_signers", amend.OpAdd, g.eveLine})
	for i, k := range keys {
		if g.signed[k], err = g.sign(k, g.ada, "ada@example.com", fmt.Sprintf("amend-%03d", i)); err != nil {
			return nil, err
		}
	}
	for i, k := range keys[:8] {
		if g.byEve[k], err = g.sign(k, g.eve, "eve@example.com", fmt.Sprintf("eve-%03d", i)); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// sign makes the first entry of chain name: an amend of k signed by key.
func (g *gitgate) sign(k ggKey, key sign.Key, signer, name string) (string, error) {
	a := amend.Amend{Loop: k.loop, List: k.list, Op: k.op, Pattern: k.pattern, Before: "sha256:" + strings.Repeat("0", 64),
		After: "sha256:" + strings.Repeat("1", 64), Signer: signer, Chain: name}
	e := a.Entry()
	e.Seq, e.Prev, e.TS = 1, chain.Genesis, gitgateTS
	msg, err := amend.Message(e)
	if err != nil {
		return "", err
	}
	sig, err := sign.Sign(msg, key, &bytes.Buffer{})
	if err != nil {
		return "", err
	}
	e.Extra["sig"] = sig.Armored
	line, _, err := chain.Seal(e)
	return string(line), err
}

// note makes an honest entry following prev at seq.
func ggNote(seq int64, prev, text string) (string, string) {
	e := chain.Entry{Seq: seq, Prev: prev, TS: gitgateTS, Loop: "deploy", Kind: chain.KindNote, Note: text}
	line, e, err := chain.Seal(e)
	if err != nil {
		panic(err)
	}
	return string(line), e.Hash
}

func lastHash(ls []string) string {
	if len(ls) == 0 {
		return chain.Genesis
	}
	e, _, err := chain.ParseEntry([]byte(ls[len(ls)-1]))
	if err != nil {
		return ""
	}
	return e.Hash
}

func appendNotes(ls []string, n int, tag string) []string {
	for i := 0; i < n; i++ {
		l, _ := ggNote(int64(len(ls)+1), lastHash(ls), fmt.Sprintf("%s %d", tag, i))
		ls = append(ls, l)
	}
	return ls
}

// reseal re-hashes line after changing its fields (seq, prev, others).
func reseal(line string, edit func(m map[string]any)) string {
	e, _, err := chain.ParseEntry([]byte(line))
	if err != nil {
		panic(err)
	}
	f := e.Fields()
	edit(f)
	b, err := chain.Canonical(f)
	if err != nil {
		panic(err)
	}
	e2, _, err := chain.ParseEntry(b)
	if err != nil {
		panic(err)
	}
	out, _, err := chain.Seal(e2)
	if err != nil {
		panic(err)
	}
	return string(out)
}

// build writes main's history and every pull request.
func (g *gitgate) build(r *rand.Rand) error {
	base := &ggState{loops: map[string]*ggLoop{}, chains: map[string][]string{}, folders: map[string][]string{}, files: map[string]string{}}
	base.loops["deploy"] = &ggLoop{name: "deploy", brief: "Ship releases.", lists: map[string][]string{
		"read": {"the repository"}, "change": {"the changelog", "Edit(src/**)"}, "send": {"push to main"},
		"ask": {"rotate the signing key", "change the billing plan"}, "never": {"delete the production database", "disable the audit log", "Edit(.env)", "Edit(secrets/**)"}},
		denyExamples: []string{"Edit(.env)"}}
	base.loops["wide"] = &ggLoop{name: "wide", brief: "Wide.", lists: map[string][]string{"read": {"the dashboards"}}}
	base.loops["child"] = &ggLoop{name: "child", extends: "deploy", brief: "Child.", lists: map[string][]string{}}
	base.signers = g.adaLine + "\n"
	base.chains["m1"] = appendNotes(nil, 12, "main")
	base.folders["f1"] = appendNotes(nil, 10, "folder")
	base.files["src/app.txt"] = "app v0\n"
	g.main = []*ggState{base}
	for i := 1; i < gitgateMainLen; i++ {
		st := g.main[i-1].clone()
		st.chains["m1"] = appendNotes(st.chains["m1"], 10, fmt.Sprintf("main %d", i))
		st.folders["f1"] = appendNotes(st.folders["f1"], 4, fmt.Sprintf("folder %d", i))
		st.files[fmt.Sprintf("src/main%d.txt", i)] = "x\n"
		switch i {
		case 2: // a loop file that does not load, fixed on main at 4
			st.files[ggLegacy] = "---\nname: legacy\nwarrant: [\n---\n"
		case 3:
			st.loops["deploy"].lists["never"] = append(st.loops["deploy"].lists["never"], "wire money")
		case 4:
			delete(st.files, ggLegacy)
			st.loops["legacy"] = &ggLoop{name: "legacy", brief: "Legacy.", lists: map[string][]string{"never": {"touch production"}}}
		}
		g.main = append(g.main, st)
	}
	for i := 0; i < gitgatePRs; i++ {
		g.prs = append(g.prs, g.genPR(r, i))
	}
	return g.write()
}

func ggPick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func ggRemove(xs []string, x string) []string {
	out := xs[:0:0]
	for _, v := range xs {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

func ggContains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// genPR makes one pull request: 1–4 warrant or file operations, then with
// some probability one way of breaking the gate.
func (g *gitgate) genPR(r *rand.Rand, i int) *ggPR {
	pr := &ggPR{fork: r.IntN(gitgateMainLen)}
	st := g.main[pr.fork].clone()
	pr.state = st
	amendN := 0
	defer func() { _ = amendN }()
	addAmend := func(line string) {
		e, _, _ := chain.ParseEntry([]byte(line))
		name, _ := e.Extra["chain"].(string)
		st.chains[name] = []string{line}
		amendN++
	}
	op := func(kind, desc string) {
		pr.ops = append(pr.ops, desc)
		pr.kinds = append(pr.kinds, kind)
	}
	// widening signs it, or leaves it unsigned (a reason to fail).
	widening := func(kind string, k ggKey, desc string) {
		switch x := r.IntN(10); {
		case x < 6:
			addAmend(g.signed[k])
			op("signed widening: "+kind, desc+" (signed)")
		default:
			op("unsigned widening: "+kind, desc+" (unsigned)")
			pr.bad = append(pr.bad, "unsigned widening: "+desc)
		}
	}
	if _, broken := st.files[ggLegacy]; broken {
		// The merge base's legacy loop does not load (so head's lint
		// fails until it is fixed): every pull request forked there fixes
		// it, and what the fixed file allows is new.
		delete(st.files, ggLegacy)
		list := ggPick(r, []string{"read", "draft", "change", "send"})
		e := ggPick(r, ggAllowPool[list])
		st.loops["legacy"] = &ggLoop{name: "legacy", brief: "Legacy.", lists: map[string][]string{list: {e}}}
		widening("a loop that did not load at the merge base, fixed", ggKey{"legacy", list, amend.OpAdd, e}, fmt.Sprintf("fix the broken loop legacy with %s %q", list, e))
	}
	n := 1 + r.IntN(4)
	for j := 0; j < n; j++ {
		switch r.IntN(16) {
		case 0, 1: // add to an allow list
			l := ggPick(r, []string{"deploy", "wide", "child"})
			list := ggPick(r, []string{"read", "draft", "change", "send"})
			e := ggPick(r, ggAllowPool[list])
			lp, ok := st.loops[l]
			if !ok || ggContains(lp.lists[list], e) || inherited(st, l, list, e) {
				continue
			}
			lp.lists[list] = append(lp.lists[list], e)
			widening("add "+list, ggKey{l, list, amend.OpAdd, e}, fmt.Sprintf("add %s %q to %s", list, e, l))
		case 2: // remove a held entry
			list := ggPick(r, []string{"ask", "never"})
			lp := st.loops["deploy"]
			var have []string
			for _, e := range lp.lists[list] {
				if ggContains(ggHoldPool[list], e) {
					have = append(have, e)
				}
			}
			if len(have) == 0 {
				continue
			}
			e := ggPick(r, have)
			lp.lists[list] = ggRemove(lp.lists[list], e)
			widening("remove "+list, ggKey{"deploy", list, amend.OpRemove, e}, fmt.Sprintf("remove %s %q from deploy", list, e))
		case 3: // a new loop
			if _, ok := st.loops["fresh"]; ok {
				continue
			}
			f := &ggLoop{name: "fresh", brief: "Fresh.", lists: map[string][]string{"never": {"touch production"}}}
			st.loops["fresh"] = f
			if r.IntN(2) == 0 {
				op("narrowing: new loop with only held entries", "new loop fresh with a never entry")
				continue
			}
			list := ggPick(r, []string{"read", "draft", "change", "send"})
			e := ggPick(r, ggAllowPool[list])
			f.lists[list] = []string{e}
			widening("new loop with allow entries", ggKey{"fresh", list, amend.OpAdd, e}, fmt.Sprintf("new loop fresh with %s %q", list, e))
		case 4: // narrowings
			l := st.loops["deploy"]
			switch r.IntN(3) {
			case 0:
				list := ggPick(r, []string{"ask", "never"})
				e := fmt.Sprintf("new held entry %d", i)
				l.lists[list] = append(l.lists[list], e)
				op("narrowing: add "+list, fmt.Sprintf("add %s %q to deploy", list, e))
			case 1:
				e := "the repository"
				if !ggContains(l.lists["read"], e) {
					continue
				}
				l.lists["read"] = ggRemove(l.lists["read"], e)
				op("narrowing: remove read", fmt.Sprintf("remove read %q from deploy", e))
			default:
				l.brief = fmt.Sprintf("Ship releases, carefully (%d).", i)
				op("brief only", "edit deploy's brief")
			}
		case 5: // unrelated files, renames
			if r.IntN(2) == 0 {
				st.files[fmt.Sprintf("src/pr%d.txt", i)] = "new\n"
				op("unrelated change", "add an unrelated file")
			} else if c, ok := st.files["src/app.txt"]; ok {
				delete(st.files, "src/app.txt")
				st.files["src/app-renamed.txt"] = c
				op("unrelated rename", "rename an unrelated file")
			}
		case 6: // honest record growth
			switch r.IntN(3) {
			case 0:
				st.chains["m1"] = appendNotes(st.chains["m1"], 1+r.IntN(5), fmt.Sprintf("pr %d", i))
				op("honest chain growth", "append entries to m1")
			case 1:
				st.folders["f1"] = appendNotes(st.folders["f1"], 1+r.IntN(6), fmt.Sprintf("pr %d", i))
				op("honest chain growth", "append entries to the folder chain f1")
			default:
				st.chains[fmt.Sprintf("w%d", i)] = appendNotes(nil, 1+r.IntN(4), "new")
				op("honest new chain", "a new chain from GENESIS")
			}
		case 7: // signer change
			if strings.Contains(st.signers, g.eveLine) {
				continue
			}
			st.signers += g.eveLine + "\n"
			widening("allowed_signers change", ggKey{"allowed_signers", "allowed_signers", amend.OpAdd, g.eveLine}, "add eve to allowed_signers")
		case 8: // extends change: no amend covers it
			c, ok := st.loops["child"]
			if !ok || c.extends != "deploy" {
				continue
			}
			c.extends = "wide"
			op("unsigned widening: extends", "child extends wide instead of deploy")
			pr.bad = append(pr.bad, "extends changed")
		case 9: // deleting or renaming a loop: no amend covers it
			if _, ok := st.loops["wide"]; !ok || st.loops["child"].extends == "wide" {
				continue
			}
			l := st.loops["wide"]
			delete(st.loops, "wide")
			if r.IntN(2) == 0 {
				l.name = "wider"
				st.loops["wider"] = l
				op("unsigned widening: loop renamed", "rename loop wide to wider")
			} else {
				op("unsigned widening: loop deleted", "delete loop wide")
			}
			pr.bad = append(pr.bad, "loop deleted")
		case 10, 11, 12: // a bad amend for a widening it names
			g.badAmend(r, pr, st, i)
		case 13: // add a typed allow entry: a widening like any other
			l := ggPick(r, []string{"deploy", "wide", "child"})
			list := ggPick(r, []string{"read", "change"})
			e := ggPick(r, ggTypedPool[list])
			lp, ok := st.loops[l]
			if !ok || ggContains(lp.lists[list], e) || inherited(st, l, list, e) {
				continue
			}
			lp.lists[list] = append(lp.lists[list], e)
			widening("add a typed "+list+" entry", ggKey{l, list, amend.OpAdd, e}, fmt.Sprintf("add %s %q to %s", list, e, l))
		case 14: // remove a typed allow entry: a narrowing, unsigned
			l := st.loops["deploy"]
			if !ggContains(l.lists["change"], "Edit(src/**)") {
				continue
			}
			l.lists["change"] = ggRemove(l.lists["change"], "Edit(src/**)")
			op("narrowing: remove a typed change entry", `remove change "Edit(src/**)" from deploy`)
		case 15: // examples: a deny line removed is a widening no amend signs, one added a narrowing
			l := st.loops["deploy"]
			if ggContains(l.denyExamples, "Edit(.env)") && r.IntN(2) == 0 {
				l.denyExamples = ggRemove(l.denyExamples, "Edit(.env)")
				op("unsigned widening: deny example removed", `remove the deny example "Edit(.env)" from deploy`)
				pr.bad = append(pr.bad, "deny example removed")
				continue
			}
			if ggContains(l.denyExamples, "Edit(secrets/key.pem)") {
				continue
			}
			l.denyExamples = append(l.denyExamples, "Edit(secrets/key.pem)")
			op("narrowing: deny example added", `add the deny example "Edit(secrets/key.pem)" to deploy`)
		}
	}
	if len(pr.ops) == 0 {
		st.files[fmt.Sprintf("src/pr%d.txt", i)] = "new\n"
		op("unrelated change", "add an unrelated file")
	}
	if r.IntN(4) == 0 {
		g.tamper(r, pr, st, i)
	}
	if r.IntN(8) == 0 {
		h := lastHash(st.chains["m1"])
		if r.IntN(2) == 0 {
			pr.pin = ".gitwarrant/record/m1.jsonl " + h
			op("pin of a present head", "pin m1's head")
		} else {
			pr.pin = ".gitwarrant/record/m1.jsonl sha256:" + strings.Repeat("ab", 32)
			op("tamper: absent pinned head", "pin a head m1 does not hold")
			pr.bad = append(pr.bad, "absent pinned head")
		}
	}
	return pr
}

// inherited reports whether loop l already gets e on list through its
// parent (adding it again is no change of the resolved warrant).
func inherited(st *ggState, l, list, e string) bool {
	lp := st.loops[l]
	for lp != nil && lp.extends != "" {
		lp = st.loops[lp.extends]
		if lp != nil && ggContains(lp.lists[list], e) {
			return true
		}
	}
	if l != "child" {
		if c, ok := st.loops["child"]; ok && c.extends == l && ggContains(c.lists[list], e) {
			return true // the child holds it already: the parent's add is still a change for the parent
		}
	}
	return false
}

// badAmend makes a widening whose amend must not count. One per pull
// request: two "amends of a different entry" can name each other's entry,
// and then each widening is signed after all.
func (g *gitgate) badAmend(r *rand.Rand, pr *ggPR, st *ggState, i int) {
	for _, k := range pr.kinds {
		if strings.HasPrefix(k, "bad amend: ") {
			return
		}
	}
	l := st.loops["deploy"]
	list := ggPick(r, []string{"read", "draft", "change", "send"})
	var e string
	for _, c := range ggAllowPool[list] {
		if !ggContains(l.lists[list], c) {
			e = c
			break
		}
	}
	if e == "" {
		return
	}
	k := ggKey{"deploy", list, amend.OpAdd, e}
	good := g.signed[k]
	name := func(line string) string {
		x, _, _ := chain.ParseEntry([]byte(line))
		s, _ := x.Extra["chain"].(string)
		return s
	}
	taken := func(line string) bool { _, ok := st.chains[name(line)]; return ok }
	var kind string
	switch r.IntN(6) {
	case 0: // forged: the pattern changed after signing
		kind = "forged amend (pattern edited)"
		var other ggKey
		for _, c := range ggAllowPool[list] {
			if c != e {
				other = ggKey{"deploy", list, amend.OpAdd, c}
			}
		}
		line := reseal(g.signed[other], func(m map[string]any) { m["pattern"] = e })
		if taken(line) {
			return
		}
		st.chains[name(line)] = []string{line}
	case 1: // forged: the signature corrupted
		kind = "forged amend (signature bytes)"
		line := reseal(good, func(m map[string]any) {
			s := m["sig"].(string)
			m["sig"] = strings.Replace(s, s[60:64], "AAAA", 1)
		})
		if taken(line) {
			return
		}
		st.chains[name(line)] = []string{line}
	case 2: // replayed into another chain, same position
		kind = "replayed amend (another chain)"
		st.chains[fmt.Sprintf("replay-%d", i)] = []string{good}
	case 3: // replayed onto the end of m1: re-chained, so it verifies as a chain
		kind = "replayed amend (another position)"
		ls := st.chains["m1"]
		line := reseal(good, func(m map[string]any) {
			m["seq"] = int64(len(ls) + 1)
			m["prev"] = lastHash(ls)
		})
		st.chains["m1"] = append(ls, line)
	case 4: // signed by a signer only head lists
		kind = "amend by a head-only signer"
		ek := k
		line, ok := g.byEve[ek]
		if !ok {
			for kk, v := range g.byEve {
				if kk.loop == "deploy" && kk.op == amend.OpAdd && !ggContains(l.lists[kk.list], kk.pattern) {
					ek, line, ok = kk, v, true
					break
				}
			}
		}
		if !ok || taken(line) {
			return
		}
		k, e, list = ek, ek.pattern, ek.list
		if !strings.Contains(st.signers, g.eveLine) {
			st.signers += g.eveLine + "\n"
			addAmendLine(st, g.signed[ggKey{"allowed_signers", "allowed_signers", amend.OpAdd, g.eveLine}])
		}
		st.chains[name(line)] = []string{line}
	default: // an amend of a different entry
		kind = "amend of a different entry"
		for _, c := range ggAllowPool[list] {
			if c != e {
				line := g.signed[ggKey{"deploy", list, amend.OpAdd, c}]
				st.chains[name(line)] = []string{line}
				break
			}
		}
	}
	l.lists[list] = append(l.lists[list], e)
	pr.ops = append(pr.ops, fmt.Sprintf("add %s %q to deploy with a %s", list, e, kind))
	pr.kinds = append(pr.kinds, "bad amend: "+kind)
	pr.bad = append(pr.bad, kind)
	_ = k
}

func addAmendLine(st *ggState, line string) {
	e, _, _ := chain.ParseEntry([]byte(line))
	name, _ := e.Extra["chain"].(string)
	st.chains[name] = []string{line}
}

// tamper breaks a chain of the base the way the tamper suite does: an
// entry edited (re-hashed or not), deleted, inserted, swapped, the chain
// truncated or deleted, a segment file deleted, a new entry mis-hashed, a
// new chain not starting at GENESIS.
func (g *gitgate) tamper(r *rand.Rand, pr *ggPR, st *ggState, i int) {
	ls := append([]string(nil), st.chains["m1"]...)
	base := len(g.main[pr.fork].chains["m1"])
	k := r.IntN(base)
	var kind string
	switch r.IntN(10) {
	case 0:
		kind = "edit an entry (hash left)"
		ls[k] = strings.Replace(ls[k], `"note":"`, `"note":"X`, 1)
	case 1:
		kind = "edit an entry (re-hashed)"
		ls[k] = reseal(ls[k], func(m map[string]any) { m["note"] = "rewritten" })
	case 2:
		kind = "delete an entry"
		ls = append(ls[:k], ls[k+1:]...)
	case 3:
		kind = "insert an entry"
		extra, _ := ggNote(int64(k+1), lastHash(ls[:k]), "inserted")
		ls = append(ls[:k], append([]string{extra}, ls[k:]...)...)
	case 4:
		if k+1 >= len(ls) {
			k--
		}
		kind = "swap two entries"
		ls[k], ls[k+1] = ls[k+1], ls[k]
	case 5:
		kind = "truncate"
		ls = ls[:k]
		if len(ls) == 0 {
			delete(st.chains, "m1")
			kind = "delete the chain"
			break
		}
	case 6:
		kind = "delete the chain"
		delete(st.chains, "m1")
		ls = nil
	case 7:
		kind = "delete a sealed segment"
		pr.deleteSegment = ".gitwarrant/record/f1/000000005-000000008.jsonl"
	case 8:
		kind = "a new entry mis-hashed"
		ls = appendNotes(ls, 1, "new")
		ls[len(ls)-1] = strings.Replace(ls[len(ls)-1], `"note":"`, `"note":"Y`, 1)
	default:
		kind = "a new chain not at GENESIS"
		w := appendNotes(nil, 3, fmt.Sprintf("chain %d", i))
		st.chains[fmt.Sprintf("n%d", i)] = w[1:]
	}
	if ls != nil {
		st.chains["m1"] = ls
	}
	pr.ops = append(pr.ops, "tamper: "+kind)
	pr.kinds = append(pr.kinds, "tamper: "+kind)
	pr.bad = append(pr.bad, "chain tamper: "+kind)
}

// write builds the repository with one `git fast-import`: main's commits,
// then each pull request as one commit on its fork point (two when it
// pins a head).
func (g *gitgate) write() error {
	if out, err := exec.Command("git", "init", "-q", "-b", "main", g.repo).CombinedOutput(); err != nil {
		return fmt.Errorf("git init: %v: %s", err, out)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	mark := 0
	commit := func(ref string, from int, msg string, old, now map[string]string) int {
		mark++
		fmt.Fprintf(w, "commit %s\nmark :%d\ncommitter Gate Eval <eval@example.com> %d +0000\ndata %d\n%s\n", ref, mark, 1767000000+mark, len(msg), msg)
		if from > 0 {
			fmt.Fprintf(w, "from :%d\n", from)
		}
		paths := make([]string, 0, len(now))
		for p := range now {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for p := range old {
			if _, ok := now[p]; !ok {
				fmt.Fprintf(w, "D %s\n", p)
			}
		}
		for _, p := range paths {
			if c, ok := old[p]; ok && c == now[p] {
				continue
			}
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", p, len(now[p]), now[p])
		}
		return mark
	}
	var mainMarks []int
	var prev map[string]string
	for i, st := range g.main {
		t := st.tree()
		from := 0
		if i > 0 {
			from = mainMarks[i-1]
		}
		mainMarks = append(mainMarks, commit("refs/heads/main", from, fmt.Sprintf("main %d", i), prev, t))
		prev = t
	}
	var prMarks []int
	for i, pr := range g.prs {
		old := g.main[pr.fork].tree()
		t := pr.state.tree()
		if pr.deleteSegment != "" {
			delete(t, pr.deleteSegment)
		}
		m := commit(fmt.Sprintf("refs/heads/pr%d", i), mainMarks[pr.fork], "pull request "+fmt.Sprint(i), old, t)
		if pr.pin != "" {
			m = commit(fmt.Sprintf("refs/heads/pr%d", i), m, "pinned\n\n"+gitx.HeadTrailer+": "+pr.pin, t, t)
		}
		prMarks = append(prMarks, m)
	}
	w.Flush()
	marks := filepath.Join(g.dir, "marks")
	cmd := exec.Command("git", "fast-import", "--quiet", "--export-marks="+marks)
	cmd.Dir = g.repo
	cmd.Stdin = &b
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import: %v: %s", err, out)
	}
	mb, err := os.ReadFile(marks)
	if err != nil {
		return err
	}
	sha := map[int]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(mb)), "\n") {
		var n int
		var h string
		if _, err := fmt.Sscanf(l, ":%d %s", &n, &h); err == nil {
			sha[n] = h
		}
	}
	for _, m := range mainMarks {
		g.mainSHA = append(g.mainSHA, sha[m])
	}
	for _, m := range prMarks {
		g.prSHA = append(g.prSHA, sha[m])
	}
	return nil
}
