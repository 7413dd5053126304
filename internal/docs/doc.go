// Package docs holds no code: its test keeps every citation of the
// repository's docs/ — `docs/<file>.md#<heading>` in comments, links in the
// Markdown — pointing at a heading that exists (docs/README.md).
package docs
