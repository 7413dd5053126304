// Package ghaction is the GitHub Action's entry point (docs/ci.md#the-github-action):
// it reads the event payload and the inputs, runs the CI gate, and writes
// the outputs, the job summary, annotations on the loop-file lines of
// unsigned widenings and one pull-request comment kept up to date. The
// verdict is the gate's alone: nothing the comment does changes it.
package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/gitwarrant/gitwarrant/internal/ci"
	"github.com/gitwarrant/gitwarrant/internal/gitx"
	"github.com/google/go-github/v62/github"
	"github.com/sethvargo/go-githubactions"
)

// Marker is the hidden line that finds the gate's own comment.
const Marker = "<!-- gitwarrant-ci -->"

// MaxAnnotations is how many error annotations GitHub shows per step;
// the rest are listed in the summary.
const MaxAnnotations = 10

const zeroSHA = "0000000000000000000000000000000000000000"

// Event is the part of the event payload the action reads.
type Event struct {
	PullRequest *struct {
		Number int `json:"number"`
		Base   struct {
			SHA string `json:"sha"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Before     string `json:"before"`
	After      string `json:"after"`
	Repository struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// Getenv reads the environment; an input named with hyphens
// (INPUT_GITHUB-TOKEN, as go-githubactions asks for it) is also read with
// underscores, the name action.yml can pass through a shell.
func Getenv(k string) string {
	if v := os.Getenv(k); v != "" || !strings.HasPrefix(k, "INPUT_") {
		return v
	}
	return os.Getenv(strings.ReplaceAll(k, "-", "_"))
}

// Run is the action: it returns the process exit code.
func Run(ctx context.Context, a *githubactions.Action) int {
	gh, err := a.Context()
	if err != nil {
		a.Errorf("reading the Actions environment: %v", err)
		return 1
	}
	in := func(k string) string { return strings.TrimSpace(a.GetInput(k)) }
	var ev Event
	if gh.EventPath != "" {
		b, err := os.ReadFile(gh.EventPath)
		if err != nil {
			a.Errorf("reading the event payload %s: %v", gh.EventPath, err)
			return 1
		}
		if err := json.Unmarshal(b, &ev); err != nil {
			a.Errorf("the event payload %s is not JSON: %v", gh.EventPath, err)
			return 1
		}
	}
	dir := in("dir")
	if dir == "" {
		dir = gh.Workspace
	}
	if dir == "" {
		dir = "."
	}
	repo, err := gitx.Open(dir)
	if err != nil {
		a.Errorf("%s: %v", dir, err)
		return 1
	}
	base, head, err := revisions(repo, gh.EventName, ev, in("base"), in("head"))
	if err != nil {
		a.Errorf("%v", err)
		return 1
	}
	strict, presence := truthy(in("strict")), truthy(in("require-user-presence"))
	projRel := ".gitwarrant"
	others, err := ci.CleanOtherGates(strings.Fields(in("other-gates")), projRel)
	if err != nil {
		a.Errorf("the other-gates input: %v", err)
		return 1
	}
	rep, err := ci.Run(repo, ci.Options{Base: base, Head: head, ProjRel: projRel, Strict: strict, RequireUserPresence: presence, OtherGates: others, Home: Getenv("HOME")})
	if err != nil {
		a.Errorf("gitwarrant ci: %v", err)
		return 1
	}
	un := rep.Uncovered()
	a.SetOutput("widenings", strconv.Itoa(rep.Summary.Widenings))
	a.SetOutput("uncovered", strconv.Itoa(len(un)))
	a.SetOutput("chain-ok", strconv.FormatBool(rep.ChainOK()))
	for i, c := range un {
		if i == MaxAnnotations {
			break
		}
		a.WithFieldsMap(map[string]string{"file": ci.FileOf(projRel, c), "line": strconv.Itoa(max(c.Line, 1)), "title": "unsigned widening"}).
			Errorf("%s %s %q in %s needs an amend signed by a person the merge base's allowed_signers lists (gitwarrant amend)", c.Op, c.List, c.Entry, c.Loop)
	}
	for _, f := range rep.Findings {
		a.WithFieldsMap(map[string]string{"title": "record chain " + f.Reason}).Errorf("%s seq %d at commit %s: %s", f.Chain, f.Seq, f.Commit, f.Detail)
	}
	for _, u := range rep.Unreviewed {
		a.WithFieldsMap(map[string]string{"file": u.Path, "title": "a warrant path this gate does not compare"}).Errorf("%s", u.Why)
	}
	for _, g := range rep.Gate {
		fields := map[string]string{"file": g.File, "title": "the gitwarrant gate is weakened"}
		if g.Line > 0 {
			fields["line"] = strconv.Itoa(g.Line)
		}
		if strict {
			a.WithFieldsMap(fields).Errorf("%s", g.What)
		} else {
			a.WithFieldsMap(fields).Warningf("%s", g.What)
		}
	}
	var md bytes.Buffer
	rep.Markdown(&md, projRel, MaxAnnotations)
	summary := md.String()
	if m := metrics(repo); m != "" {
		summary += "\n" + m
	}
	a.AddStepSummary(summary)

	if truthy(orDefault(in("comment"), "on")) && ev.PullRequest != nil {
		comment(ctx, a, gh, in("github-token"), ev.PullRequest.Number, Marker+"\n"+md.String())
	}
	if !rep.OK() {
		a.Errorf("gitwarrant ci %s", rep.Verdict())
		return 1
	}
	a.Infof("gitwarrant ci passed")
	return 0
}

// revisions picks base and head from the inputs, else from the payload:
// a pull request's base and head SHAs; a push's before and after, a new
// branch (before all zeros) against the default branch.
func revisions(repo *gitx.Repo, event string, ev Event, base, head string) (string, string, error) {
	switch {
	case base != "" && head != "":
	case ev.PullRequest != nil:
		base, head = orDefault(base, ev.PullRequest.Base.SHA), orDefault(head, ev.PullRequest.Head.SHA)
	case event == "push" && ev.After != "":
		head = orDefault(head, ev.After)
		if base == "" {
			base = ev.Before
			if base == "" || base == zeroSHA {
				def := ev.Repository.DefaultBranch
				if def == "" {
					return "", "", errors.New("a push creating a branch, and the payload names no default branch: give the base input")
				}
				base = "origin/" + def
				if _, err := repo.ResolveCommit(base); err != nil {
					base = def
				}
			}
		}
	}
	if base == "" {
		return "", "", fmt.Errorf("no base: the %q event carries none; give the base input", event)
	}
	return base, orDefault(head, "HEAD"), nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "on", "yes", "1":
		return true
	}
	return false
}

// metrics is `gitwarrant metrics --format markdown`, when the binary
// beside the action has that command; "" otherwise.
func metrics(repo *gitx.Repo) string {
	bin := os.Getenv("GITWARRANT_BIN")
	if bin == "" {
		return ""
	}
	cmd := exec.Command(bin, "metrics", "--format", "markdown")
	cmd.Dir = repo.WorkTree
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// comment creates the pull request's gitwarrant comment, or edits the one
// the marker finds. A token that cannot write (a fork's pull request)
// skips it with a notice.
func comment(ctx context.Context, a *githubactions.Action, gh *githubactions.GitHubContext, token string, number int, body string) {
	if token == "" {
		a.Noticef("no github-token: the pull-request comment is skipped (the verdict does not depend on it)")
		return
	}
	owner, name := gh.Repo()
	client := github.NewClient(&http.Client{}).WithAuthToken(token)
	if gh.APIURL != "" {
		u, err := url.Parse(strings.TrimSuffix(gh.APIURL, "/") + "/")
		if err == nil {
			client.BaseURL = u
		}
	}
	skip := func(err error) {
		var er *github.ErrorResponse
		if errors.As(err, &er) && er.Response != nil && (er.Response.StatusCode == 403 || er.Response.StatusCode == 404) {
			a.Noticef("the token cannot write pull-request comments (read-only, as for a fork's pull request): the comment is skipped; the verdict does not depend on it")
			return
		}
		a.Warningf("the pull-request comment could not be written: %v (the verdict does not depend on it)", err)
	}
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: 100}}
	for {
		cs, resp, err := client.Issues.ListComments(ctx, owner, name, number, opts)
		if err != nil {
			skip(err)
			return
		}
		for _, c := range cs {
			if strings.Contains(c.GetBody(), Marker) {
				if _, _, err := client.Issues.EditComment(ctx, owner, name, c.GetID(), &github.IssueComment{Body: &body}); err != nil {
					skip(err)
					return
				}
				a.Infof("updated the pull-request comment %d", c.GetID())
				return
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	c, _, err := client.Issues.CreateComment(ctx, owner, name, number, &github.IssueComment{Body: &body})
	if err != nil {
		skip(err)
		return
	}
	a.Infof("created the pull-request comment %d", c.GetID())
}
