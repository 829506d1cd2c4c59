// Package world reads world files — the YAML or JSON description of
// organizations, users, deals, requests, messages, files and API keys that
// `dealctl admin apply` seeds a server with (docs/world-file.md#format) — and applies
// them to a store idempotently. docs/world-file.md is the user's guide.
//
// Every `key:` in a file is a local name. Apply records each local name's
// id in the store's refs table, so a second run updates the same rows
// instead of creating new ones.
package world
