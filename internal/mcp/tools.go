package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// workflow is said in every tool's description, so an agent that reads
// only one tool still learns the whole way of working.
const workflow = " Workflow: match_loop or list_loops to find the loop, loop_context before starting, warrant_check before every consequential action (allow: go ahead; ask: stop and ask the person; deny: never), record_note when done or stopped. No tool can amend a warrant, merge a proposal, delete the record or administer keys: those stay with a person."

// tool is one tool, defined once and served by every transport.
type tool struct {
	name    string
	aliases []string
	desc    string
	in      reflectType
	// call decodes raw JSON arguments strictly and runs the tool.
	call func(s *Service, ctx context.Context, c Caller, args json.RawMessage) (any, error)
	// add registers the tool on an SDK server for a caller.
	add func(srv *sdk.Server, s *Service, c Caller, name string)
}

type reflectType struct {
	schema *jsonschema.Schema
	out    *jsonschema.Schema
}

func def[In, Out any](name string, aliases []string, desc string, f func(*Service, context.Context, Caller, In) (Out, error)) tool {
	inSchema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema for %s: %v", name, err))
	}
	inSchema.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	outSchema, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema for %s: %v", name, err))
	}
	return tool{
		name: name, aliases: aliases, desc: desc + workflow,
		in: reflectType{schema: inSchema, out: outSchema},
		call: func(s *Service, ctx context.Context, c Caller, args json.RawMessage) (any, error) {
			var in In
			if err := decodeStrict(args, &in); err != nil {
				return nil, errorf("argument_invalid", "see the tool's input schema (GET /api/v1/openapi.json)", "%v", err)
			}
			return f(s, ctx, c, in)
		},
		add: func(srv *sdk.Server, s *Service, c Caller, as string) {
			t := &sdk.Tool{Name: as, Description: desc + workflow, InputSchema: inSchema}
			sdk.AddTool(srv, t, func(ctx context.Context, _ *sdk.CallToolRequest, in In) (*sdk.CallToolResult, Out, error) {
				out, err := f(s, ctx, c, in)
				if err != nil {
					var zero Out
					return toolError(err), zero, nil
				}
				return nil, out, nil
			})
		},
	}
}

// tools is every tool, in the order they are listed. It is built on first
// use (schema inference allocates): package init runs on every hook call,
// which never serves a tool.
var tools = sync.OnceValue(func() []tool {
	return []tool{
		def("list_loops", []string{"docket_list_loops"}, "Lists the loops of this project: each bounds one recurring task.", (*Service).ListLoops),
		def("loop_context", []string{"docket_loop_context"}, "Returns one loop's brief, procedure, warrant, reserved list and record contract as one Markdown pack (at most 6,000 tokens).", (*Service).LoopContext),
		def("warrant_check", []string{"docket_warrant_check"}, "Asks the warrant before acting and records the check. Send loop, action (read, draft, change, send) and target in plain words; or tool and tool_input exactly as you will call the tool, which is judged as the Claude Code hook judges it.", (*Service).WarrantCheck),
		def("record_note", []string{"docket_record"}, "Appends a note to the record: what you saw, did, skipped, or why you stopped — the evidence the loop's record layer asks for.", (*Service).RecordNote),
		def("match_loop", []string{"docket_match_loop"}, "Routes a task, in plain words, to the loop that covers it (loop is empty when none does).", (*Service).MatchLoop),
		def("propose_amendment", []string{"docket_propose_amendment"}, "Proposes a change to a loop's warrant, with a rationale a person reads. A proposal changes nothing: only a person applies it, signed.", (*Service).ProposeAmendment),
		def("get_proposal", []string{"docket_get_proposal"}, "Returns a proposal and its status: open, applied, rejected or stale (its loop changed since).", (*Service).GetProposal),
		def("get_metrics", []string{"docket_get_metrics"}, "Counts the record's checks by verdict, channel and loop.", (*Service).GetMetrics),
	}
})

// lookup finds a tool by name or alias.
func lookup(name string) (tool, bool) {
	for _, t := range tools() {
		if t.name == name {
			return t, true
		}
		for _, a := range t.aliases {
			if a == name {
				return t, true
			}
		}
	}
	return tool{}, false
}

// ToolNames lists the tools' names (not the aliases), for compiled context.
func ToolNames() []string {
	out := make([]string, len(tools()))
	for i, t := range tools() {
		out[i] = t.name
	}
	return out
}

// NewSDKServer returns an MCP server whose every tool (and alias) runs as c.
func NewSDKServer(s *Service, c Caller, version string, cache *sdk.SchemaCache) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "gitwarrant", Version: version}, &sdk.ServerOptions{
		Instructions: "gitwarrant holds this repository's warrants: what an agent may do without asking." + workflow,
		SchemaCache:  cache,
	})
	for _, t := range tools() {
		t.add(srv, s, c, t.name)
		for _, a := range t.aliases {
			t.add(srv, s, c, a)
		}
	}
	return srv
}

func toolError(err error) *sdk.CallToolResult {
	var e *Error
	if !errors.As(err, &e) {
		e = errorf("internal", "try again; if it persists, run `gitwarrant doctor` in the repository", "%v", err)
	}
	b, _ := json.Marshal(e)
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}
}

// decodeStrict decodes one JSON object, refusing unknown fields and
// trailing data.
func decodeStrict(data json.RawMessage, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		data = json.RawMessage("{}")
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}
