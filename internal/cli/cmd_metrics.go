package cli

import (
	"fmt"
	"time"

	"github.com/gitwarrant/gitwarrant/internal/metrics"
	"github.com/spf13/cobra"
)

type metricsOptions struct {
	loop, since, format string
	json                bool
}

func newMetricsCmd(app *App) *cobra.Command {
	var o metricsOptions
	cmd := &cobra.Command{
		Use:   "metrics [--loop L] [--since DATE] [--json] [--format text|markdown]",
		Short: "the autonomy posture, read back from the record",
		Long: `Read every check back from the record: the allow / ask / deny split, actions
per intervention (a proxy: checks ÷ (asks + denies)), the longest unattended
run (consecutive allows), amendments and proposals, per loop and per channel
(cli, hook, mcp, http), and for the Claude Code hook which asks a person
approved (the tool ran: PostToolUse evidence) and which show no evidence of
running (refused or abandoned — inferred, because PostToolUse fires only
when a tool runs). --format markdown adds a Mermaid pie chart, for a CI job
summary.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runMetrics(app, o) },
	}
	cmd.Flags().StringVar(&o.loop, "loop", "", "only this loop")
	cmd.Flags().StringVar(&o.since, "since", "", "only entries at or after this date (2026-11-01 or an RFC 3339 time)")
	cmd.Flags().StringVar(&o.format, "format", "text", "text or markdown")
	jsonFlag(cmd, &o.json)
	return cmd
}

func runMetrics(app *App, o metricsOptions) error {
	since, err := parseSince(o.since)
	if err != nil {
		return err
	}
	if o.format != "text" && o.format != "markdown" {
		return Usagef("use --format text or --format markdown", "unknown format %q", o.format)
	}
	rec, err := openRecord(app)
	if err != nil {
		return err
	}
	es, err := rec.Entries()
	if err != nil {
		return &ExitError{Code: ExitError1, Err: err}
	}
	acc := metrics.New(metrics.Filter{Loop: o.loop, Since: since})
	for i := range es {
		acc.Add(&es[i].Entry)
	}
	r := acc.Report()
	switch {
	case o.json:
		return writeJSON(app.IO.Out, r)
	case o.format == "markdown":
		metrics.Markdown(app.IO.Out, r)
	default:
		metrics.Text(app.IO.Out, r)
	}
	return nil
}

// parseSince turns a date or an RFC 3339 time into the record's timestamp
// form, which sorts as text.
func parseSince(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05.000Z"), nil
		}
	}
	return "", Usagef("e.g. --since 2026-11-01 or --since 2026-11-01T09:00:00Z", "--since %q is not a date", s)
}

var _ = fmt.Sprint
