package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is the transport of `dealctl mcp`: JSON-RPC messages, a
// line each, read from in and written to out, where the end of in does
// not end the session while a request read from it waits for its answer.
//
// A script that pipes its requests (initialize, tools/call, …) and
// closes its end expects every answer. The SDK's IOTransport ends the
// session at the end of its input, calls in flight with it, and their
// answers were lost without a word (exit 0). Here the end of in is
// passed on only once every request read has been answered, or after
// drainLimit, so that a call that never ends does not hold the process.
func StdioTransport(in io.Reader, out io.Writer) mcp.Transport {
	p := &pendingCalls{}
	p.answered = sync.NewCond(&p.mu)
	return &mcp.IOTransport{
		Reader: &requestReader{r: in, p: p},
		Writer: &answerWriter{w: out, p: p},
	}
}

// drainLimit bounds the wait for answers once the input has ended.
const drainLimit = 2 * time.Minute

// pendingCalls counts the requests read and not yet answered.
type pendingCalls struct {
	mu       sync.Mutex
	answered *sync.Cond
	open     int
}

func (p *pendingCalls) add(n int) {
	p.mu.Lock()
	p.open += n
	p.mu.Unlock()
	if n < 0 {
		p.answered.Broadcast()
	}
}

// drain waits until no request waits for its answer, or limit passes.
func (p *pendingCalls) drain(limit time.Duration) {
	timer := time.AfterFunc(limit, func() {
		p.mu.Lock()
		p.open = 0 // give up: the answers still missing are not coming
		p.mu.Unlock()
		p.answered.Broadcast()
	})
	defer timer.Stop()
	p.mu.Lock()
	for p.open > 0 {
		p.answered.Wait()
	}
	p.mu.Unlock()
}

// message is what a JSON-RPC line says of itself: a request has an id
// and a method, an answer an id and no method, a notification no id.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (m message) request() bool { return len(m.ID) > 0 && string(m.ID) != "null" && m.Method != "" }
func (m message) answer() bool  { return len(m.ID) > 0 && string(m.ID) != "null" && m.Method == "" }

// lines splits a stream into its lines as they come, calling each with
// every whole one.
type lines struct{ partial []byte }

func (l *lines) feed(b []byte, each func([]byte)) {
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return
		}
		each(l.partial[:i])
		l.partial = l.partial[i+1:]
	}
}

// requestReader counts the requests read, and holds the input's end
// back until they are answered.
type requestReader struct {
	r     io.Reader
	p     *pendingCalls
	lines lines
	ended bool // the input ended after the bytes last returned
}

func (r *requestReader) Read(b []byte) (int, error) {
	if r.ended {
		r.p.drain(drainLimit)
		return 0, io.EOF
	}
	n, err := r.r.Read(b)
	r.lines.feed(b[:n], r.count)
	if err != io.EOF {
		return n, err
	}
	// A last request need not end with a newline: the SDK reads it all
	// the same, so it is counted too.
	if len(r.lines.partial) > 0 {
		r.count(r.lines.partial)
		r.lines.partial = nil
	}
	if n > 0 {
		// The SDK has not seen these bytes yet: they go first, and the
		// end (after the wait for their answers) with the next read.
		r.ended = true
		return n, nil
	}
	r.p.drain(drainLimit)
	return 0, io.EOF
}

// count counts line if it is a request.
func (r *requestReader) count(line []byte) {
	var m message
	if json.Unmarshal(line, &m) == nil && m.request() {
		r.p.add(1)
	}
}

// Close leaves the process's stdin open.
func (r *requestReader) Close() error { return nil }

// answerWriter counts the answers written.
type answerWriter struct {
	mu    sync.Mutex // a session may write from several goroutines
	w     io.Writer
	p     *pendingCalls
	lines lines
}

func (w *answerWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(b)
	w.lines.feed(b[:n], func(line []byte) {
		var m message
		if json.Unmarshal(line, &m) == nil && m.answer() {
			w.p.add(-1)
		}
	})
	return n, err
}

// Close leaves the process's stdout open when the session ends.
func (w *answerWriter) Close() error { return nil }
