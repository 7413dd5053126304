// Package mcp is how agents that are not a hook reach gitwarrant
// (docs/mcp.md): one implementation of each tool, served over MCP's stdio
// and Streamable HTTP transports and mirrored as JSON under /api/v1. No tool
// can amend a warrant, merge a proposal, delete or administer: this package
// never imports the amend or signing code.
package mcp

import (
	"fmt"
	"net/http"
	"sync"
)

// Error is the one error shape of every surface: a fixed code, a message
// and a hint saying what to do (docs/mcp.md#errors).
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint"`
	// RetryAfter is the whole seconds to wait (rate limits only).
	RetryAfter int `json:"retry_after,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// The fixed set of codes, with the HTTP status each answers with.
var codeStatus = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"auth_missing":       http.StatusUnauthorized,
		"auth_invalid":       http.StatusUnauthorized,
		"auth_revoked":       http.StatusUnauthorized,
		"scope_read":         http.StatusForbidden,
		"scope_hook":         http.StatusForbidden,
		"rate_limited":       http.StatusTooManyRequests,
		"proposal_rate":      http.StatusTooManyRequests,
		"open_limit":         http.StatusTooManyRequests,
		"request_too_large":  http.StatusRequestEntityTooLarge,
		"body_invalid":       http.StatusBadRequest,
		"content_type":       http.StatusUnsupportedMediaType,
		"method_not_allowed": http.StatusMethodNotAllowed,
		"loop_unknown":       http.StatusNotFound,
		"loop_invalid":       http.StatusUnprocessableEntity,
		"proposal_unknown":   http.StatusNotFound,
		"argument_invalid":   http.StatusBadRequest,
		"project_missing":    http.StatusServiceUnavailable,
		"record_failed":      http.StatusInternalServerError,
		"route_unknown":      http.StatusNotFound,
		"internal":           http.StatusInternalServerError,
	}
})

// Codes lists every error code, for the documentation test.
func Codes() []string {
	out := make([]string, 0, len(codeStatus()))
	for c := range codeStatus() {
		out = append(out, c)
	}
	return out
}

// Status is the HTTP status of an error code.
func Status(code string) int {
	if s, ok := codeStatus()[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

func errorf(code, hint, format string, args ...any) *Error {
	if _, ok := codeStatus()[code]; !ok {
		panic("mcp: undeclared error code " + code)
	}
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}
