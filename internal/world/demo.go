package world

import (
	"context"
	"embed"
	"io/fs"
	"path"
	"time"

	"github.com/dealctl/dealctl/internal/store"
)

//go:embed demo/world.yaml demo/files
var demoFS embed.FS

// Demo keys: ApplyDemo's Result has these names in Keys, so `serve --demo`
// can print a ready key for each side.
const (
	DemoSellAdmin  = "demo-sell-admin"  // owner side, admin, write
	DemoSellEditor = "demo-sell-editor" // owner side, editor, write
	DemoBuyEditor  = "demo-buy-editor"  // counterparty, editor, write
	DemoBuyViewer  = "demo-buy-viewer"  // counterparty, viewer, read
)

// Demo returns the embedded demo world file.
func Demo() []byte {
	data, err := demoFS.ReadFile("demo/world.yaml")
	if err != nil {
		panic(err) // embedded at build time: cannot be missing
	}
	return data
}

// ApplyDemo loads the demo world, with due dates and posting times
// relative to now.
func ApplyDemo(ctx context.Context, st store.Store, now time.Time) (*Result, error) {
	w, err := Parse(Demo())
	if err != nil {
		return nil, err
	}
	read := func(p string) ([]byte, error) { return fs.ReadFile(demoFS, path.Join("demo", p)) }
	// A fresh demo's threads show a week of posts: its activity does too.
	w.history = true
	return ApplyWith(ctx, st, w, read, now)
}
