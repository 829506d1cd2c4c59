package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/dealctl/dealctl/internal/api"
	"github.com/dealctl/dealctl/internal/client"
)

// rememberedRun is one `dealctl import` that wrote, as this machine remembers
// it, so that `import --undo` can take it back without the user naming
// it. ID is the batch id every write of the run sent (X-Dealctl-Batch);
// the server keeps it on the run's events, which are what the undo reads.
type rememberedRun struct {
	ID       string    `json:"id"`
	Server   string    `json:"server"`
	DealID   string    `json:"deal_id"`
	Deal     string    `json:"deal"` // its codename then, for people
	File     string    `json:"file"`
	At       time.Time `json:"at"`
	Finished bool      `json:"finished"` // false: interrupted, or still running
}

// maxImportRuns is how many runs are remembered: enough to undo the
// last few, small enough to read at once.
const maxImportRuns = 50

// importRuns is the list of runs this machine remembers, kept as JSON in
// the cache folder's parent (beside http/): losing it loses only the
// default of --undo, since a run can also be named by its id.
type importRuns struct {
	file   func() (string, error)
	server func() (string, error)
}

func newImportRuns(f *Factory) importRuns {
	return importRuns{
		file: func() (string, error) {
			dir, err := f.CacheDir()
			if err != nil {
				return "", err
			}
			return filepath.Join(filepath.Dir(dir), "import-runs.json"), nil
		},
		server: f.Server,
	}
}

// load reads the remembered runs, oldest first; none when there is no
// file yet.
func (r importRuns) load() ([]rememberedRun, error) {
	path, err := r.file()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var runs []rememberedRun
	return runs, json.Unmarshal(data, &runs)
}

// save records run, replacing the entry of the same id, and keeps the
// newest maxImportRuns.
func (r importRuns) save(run rememberedRun) error {
	return r.update(func(runs []rememberedRun) []rememberedRun {
		out := withoutRun(runs, run.ID)
		out = append(out, run)
		if len(out) > maxImportRuns {
			out = out[len(out)-maxImportRuns:]
		}
		return out
	})
}

// forget drops the run of that id: a run that wrote nothing has nothing
// to undo, and must not hide the one before it from --undo.
func (r importRuns) forget(id string) error {
	return r.update(func(runs []rememberedRun) []rememberedRun { return withoutRun(runs, id) })
}

func withoutRun(runs []rememberedRun, id string) []rememberedRun {
	var out []rememberedRun
	for _, x := range runs {
		if x.ID != id {
			out = append(out, x)
		}
	}
	return out
}

// update rewrites the list with change. The file is replaced whole
// (write, then rename), so a crash leaves the old list or the new one;
// an unreadable list is replaced rather than blocking imports.
func (r importRuns) update(change func([]rememberedRun) []rememberedRun) error {
	runs, _ := r.load()
	data, err := json.MarshalIndent(change(runs), "", "  ")
	if err != nil {
		return err
	}
	path, err := r.file()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// last is the newest run on server for the deal, or nil.
func (r importRuns) last(server, dealID string) (*rememberedRun, error) {
	runs, err := r.load()
	if err != nil {
		return nil, err
	}
	for i := len(runs) - 1; i >= 0; i-- {
		if runs[i].Server == server && runs[i].DealID == dealID {
			return &runs[i], nil
		}
	}
	return nil, nil
}

// startImportRun chooses the run's batch id, remembers the run before its
// first write (an interrupted run can be undone too), and returns the
// client that sends the id with every write. Where the server does not
// advertise batches the run cannot be undone as one; it is imported all
// the same, with a note.
func startImportRun(o *ImportOptions, s *dealScope) (*client.Client, *rememberedRun) {
	if !s.c.Supports(api.ExtBatch) || !s.c.Supports(api.ExtEvents) {
		o.Infof("note: this server does not record import runs (no batch or events extension): 'dealctl import --undo' cannot take this one back")
		return s.c, nil
	}
	run := &rememberedRun{ID: client.NewBatchID(o.Now()), DealID: s.Deal.ID, Deal: s.Deal.Codename, File: o.File, At: o.Now().UTC()}
	run.Server, _ = o.runs.server()
	if abs, err := filepath.Abs(o.File); err == nil {
		run.File = abs
	}
	if err := o.runs.save(*run); err != nil {
		o.Warnf("could not remember this import run (%v): 'dealctl import --undo %s' still takes it back", err, run.ID)
	}
	return s.c.WithBatch(run.ID), run
}

// finishImportRun records how the run ended (err: interrupted) and says
// how to take it back.
func finishImportRun(o *ImportOptions, run *rememberedRun, err error, applied int) {
	if run == nil {
		return
	}
	if applied == 0 {
		_ = o.runs.forget(run.ID)
		return
	}
	run.Finished = err == nil
	if err := o.runs.save(*run); err != nil {
		o.Warnf("could not remember this import run (%v)", err)
	}
	o.Infof("Import run %s: 'dealctl import --undo' takes it back.", run.ID)
}
