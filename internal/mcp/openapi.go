package mcp

import (
	"net/http"
	"sort"

	"github.com/google/jsonschema-go/jsonschema"
)

// OpenAPI builds the REST mirror's OpenAPI 3.1 document from the tool
// table itself, so it cannot drift from what is served.
func OpenAPI(version string) map[string]any {
	errSchema := map[string]any{"type": "object", "required": []string{"error"}, "properties": map[string]any{
		"error": map[string]any{"type": "object", "required": []string{"code", "message", "hint"}, "properties": map[string]any{
			"code":        map[string]any{"type": "string", "enum": sortedCodes()},
			"message":     map[string]any{"type": "string"},
			"hint":        map[string]any{"type": "string"},
			"retry_after": map[string]any{"type": "integer"},
		}},
	}}
	paths := map[string]any{}
	for _, t := range tools() {
		paths["/api/v1/tools/"+t.name] = map[string]any{"post": map[string]any{
			"operationId": t.name,
			"summary":     t.desc,
			"security":    []any{map[string]any{"bearer": []any{}}},
			"requestBody": map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": t.in.schema}}},
			"responses": map[string]any{
				"200":     map[string]any{"description": "the tool's result", "content": map[string]any{"application/json": map[string]any{"schema": t.in.out}}},
				"default": map[string]any{"description": "an error", "content": map[string]any{"application/json": map[string]any{"schema": errSchema}}},
			},
		}}
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "gitwarrant", "version": version, "description": "The MCP tools of gitwarrant as JSON. Reads, checks, notes and proposals only: no route amends, merges, deletes or administers."},
		"paths":   paths,
		"components": map[string]any{"securitySchemes": map[string]any{
			"bearer": map[string]any{"type": "http", "scheme": "bearer", "description": "a gitwarrant agent key (gwk_…), made by a person with `gitwarrant keys create`"},
		}},
	}
}

func sortedCodes() []string {
	cs := Codes()
	sort.Strings(cs)
	return cs
}

// OutputSchema is the declared result schema of a tool (for tests).
func OutputSchema(name string) (*jsonschema.Schema, bool) {
	t, ok := lookup(name)
	return t.in.out, ok
}

func (h *Handler) openapi(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", "GET")
		writeError(w, errorf("method_not_allowed", "GET the document", "%s is not allowed here", r.Method))
		return
	}
	writeJSON(w, http.StatusOK, OpenAPI(h.o.Version))
}
