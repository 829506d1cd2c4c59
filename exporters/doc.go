// Package exporters writes a deal's request list out as xlsx, csv, json
// or Markdown (docs/spreadsheets.md). The columns and their header names
// are internal/sheets', which reads the same sheets back for `import`, so
// that an export imports as it was written.
package exporters
