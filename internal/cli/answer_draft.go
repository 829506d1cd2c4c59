package cli

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/dealctl/dealctl/internal/cmdutil"
)

// draftMarker starts the lines of the draft that are instructions, not
// the answer. It is not Markdown, so "# Heading" lines in an answer stay.
const draftMarker = "# dealctl:"

// answerDraft is a text written in $EDITOR and the file holding it. The
// file is removed once the text is posted, and kept when posting fails,
// so that nothing typed is lost.
type answerDraft struct {
	Text string
	Path string
}

// editText opens $VISUAL or $EDITOR on a new draft file headed by about
// (what is being answered) and returns what was saved, without the
// instruction lines. When the editor fails after text was typed, the
// draft comes back with the error, for the caller to keep.
func editText(about string) (*answerDraft, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		return nil, cmdutil.UsageErrorf("no text: give -m or -F, or set $EDITOR")
	}
	f, err := os.CreateTemp("", "dealctl-answer-*.md")
	if err != nil {
		return nil, err
	}
	d := &answerDraft{Path: f.Name()}
	fmt.Fprintf(f, "\n%s %s\n%s Write the answer above, in Markdown. Lines starting with %q are dropped;\n%s an empty answer is not posted.\n",
		draftMarker, about, draftMarker, draftMarker, draftMarker)
	if err := f.Close(); err != nil {
		d.discard()
		return nil, err
	}
	cmd := exec.Command("sh", "-c", editor+` "$1"`, "sh", d.Path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	runErr := cmd.Run()
	data, err := os.ReadFile(d.Path)
	if err != nil {
		d.discard()
		return nil, err
	}
	d.Text = withoutInstructions(string(data))
	if runErr != nil {
		err := fmt.Errorf("the editor %q failed: %w", editor, runErr)
		if d.Text == "" {
			d.discard()
			return nil, err
		}
		return d, err // the caller keeps what was typed
	}
	return d, nil
}

// withoutInstructions drops the draft's instruction lines and the blank
// lines around the text.
func withoutInstructions(s string) string {
	var keep []string
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, draftMarker) {
			keep = append(keep, line)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// discard removes the draft file.
func (d *answerDraft) discard() { _ = os.Remove(d.Path) }

// keep leaves the text (alone, ready for -F) in the draft file and adds
// to err where it is and retry, the command that posts it.
func (d *answerDraft) keep(err error, retry string) error {
	if werr := os.WriteFile(d.Path, []byte(d.Text+"\n"), 0o600); werr != nil {
		return &describedError{err: err, msg: describeError(err) + "; your text could not be kept (" + werr.Error() + "):\n" + d.Text}
	}
	msg := fmt.Sprintf("%s; your text is kept in %s", describeError(err), d.Path)
	if retry != "" {
		msg += "; post it with: " + retry
	}
	return &describedError{err: err, msg: msg}
}

// retryAnswerCommand is the `dealctl answer` line that posts the draft at
// path with the same flags.
func retryAnswerCommand(o *AnswerOptions, path string) string {
	args := []string{"dealctl", "answer", cmdutil.ShellQuote(o.Ref), "-F", cmdutil.ShellQuote(path)}
	if o.Partial {
		args = append(args, "--partial")
	}
	if o.Set["kind"] {
		args = append(args, "--kind", cmdutil.ShellQuote(o.Kind))
	}
	if o.Internal {
		args = append(args, "--internal")
	}
	if o.NoStatus {
		args = append(args, "--no-status")
	}
	for _, l := range o.Links {
		args = append(args, "--link", cmdutil.ShellQuote(l))
	}
	return strings.Join(args, " ")
}
