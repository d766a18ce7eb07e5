package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
)

// Mode says what the recorder does with a call.
type Mode string

const (
	ModeRecord      Mode = "record"      // forward every call and record it
	ModeReplay      Mode = "replay"      // answer from the cassette only; never touch the network
	ModeAuto        Mode = "auto"        // replay what matches, forward and record the rest
	ModePassthrough Mode = "passthrough" // forward and log, record nothing
)

// ParseMode reads a --mode value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeRecord, ModeReplay, ModeAuto, ModePassthrough:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q: expected record, replay, auto or passthrough", s)
}

// Timing says how replay paces what it serves.
type Timing struct {
	// Scale multiplies recorded delays: 0 serves at once, 1 as recorded,
	// 2 twice as slowly. Streams are served event by event either way.
	Scale float64
}

// ParseTiming reads a --timing value: instant, recorded or scale=K.
func ParseTiming(s string) (Timing, error) {
	switch {
	case s == "instant":
		return Timing{}, nil
	case s == "recorded":
		return Timing{Scale: 1}, nil
	case strings.HasPrefix(s, "scale="):
		k, err := strconv.ParseFloat(strings.TrimPrefix(s, "scale="), 64)
		if err == nil && k >= 0 && k <= 1000 {
			return Timing{Scale: k}, nil
		}
	}
	return Timing{}, fmt.Errorf("unknown timing %q: expected instant, recorded or scale=K with 0 ≤ K ≤ 1000", s)
}

// Headers llmtck adds to a recorded response to say what went wrong. Replay
// acts on them and never serves them.
const (
	headerTruncated = "X-Llmtck-Truncated" // the body ended early; the value says why
	headerError     = "X-Llmtck-Error"     // no response at all (status 0); the value is the error
)

// Options configure a Recorder.
type Options struct {
	Mode Mode
	// Cassette is the file every call is recorded to or replayed from;
	// Dir, instead, holds one cassette per host (see CassetteFor).
	Cassette string
	Dir      string
	// Upstream sends forwarded calls; nil means NewUpstream().
	Upstream http.RoundTripper
	// Redact is the credential policy; nil means redact.Default().
	Redact *redact.Policy
	// Linter, when set, lints every request; its findings go on the call's
	// log line. With Check, replay answers an error finding with the
	// provider's own status and error body instead of the recording.
	Linter Linter
	Check  bool
	Timing Timing
	// Log receives one line per call and warnings; nil discards them.
	Log io.Writer
}

// Recorder is an http.RoundTripper that records calls into cassettes,
// replays them, or both, by Mode. The base-URL recorder, the forward proxy
// and the replay server all send their calls through one.
type Recorder struct {
	opts   Options
	policy redact.Policy
	up     http.RoundTripper
	log    *callLog
	seq    atomic.Uint64

	mu     sync.Mutex
	books  map[string]*book
	closed bool
}

// book is one cassette in use: what can be replayed from it, where new calls
// are appended, and the calls answered so far for the linter.
type book struct {
	path  string
	name  string
	ready chan struct{}
	err   error

	player *player // replay and auto
	sink   *sink   // record and auto

	mu      sync.Mutex
	history []engine.Exchange
}

// NewRecorder returns a Recorder. With Options.Cassette it opens the
// cassette at once, so a bad file is reported before the first call.
func NewRecorder(opts Options) (*Recorder, error) {
	if _, err := ParseMode(string(opts.Mode)); err != nil {
		return nil, err
	}
	if (opts.Cassette == "") == (opts.Dir == "") && opts.Mode != ModePassthrough {
		return nil, errors.New("set exactly one of Cassette and Dir")
	}
	r := &Recorder{opts: opts, books: map[string]*book{}, up: opts.Upstream, log: &callLog{w: opts.Log}}
	if r.up == nil {
		r.up = NewUpstream()
	}
	if opts.Redact != nil {
		r.policy = *opts.Redact
	} else {
		r.policy = redact.Default()
	}
	if opts.Cassette != "" && opts.Mode != ModePassthrough {
		if _, err := r.book(""); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// NewUpstream returns the transport forwarded calls go out on. It ignores
// HTTPS_PROXY and friends: a harness pointed at this proxy often exports
// them, and following them would loop back here.
func NewUpstream() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		// No response timeout: a long generation may take minutes.
	}
}

// CassetteFor names the cassette of host in a cassette folder.
func CassetteFor(dir, host string) string {
	name := strings.NewReplacer(":", "_", "/", "_", "\\", "_").Replace(strings.ToLower(host))
	if name == "" || name[0] == '.' {
		name = "_" + name
	}
	return filepath.Join(dir, name+".yaml")
}

// book returns the cassette for a call to host, opening it on first use.
func (r *Recorder) book(host string) (*book, error) {
	path := r.opts.Cassette
	if path == "" {
		path = CassetteFor(r.opts.Dir, host)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errClosed
	}
	b := r.books[path]
	if b == nil {
		b = &book{path: path, name: filepath.Base(path), ready: make(chan struct{})}
		r.books[path] = b
		r.mu.Unlock()
		b.err = r.open(b)
		close(b.ready)
	} else {
		r.mu.Unlock()
		<-b.ready
	}
	return b, b.err
}

func (r *Recorder) open(b *book) error {
	switch r.opts.Mode {
	case ModeReplay:
		c, err := cassette.Load(b.path)
		if errors.Is(err, fs.ErrNotExist) && r.opts.Dir != "" {
			b.player = newPlayer(nil) // every call to this host misses, saying so
			return nil
		}
		if err != nil {
			return err
		}
		b.player = newPlayer(c.Interactions)
	case ModeRecord, ModeAuto:
		s, existing, err := openSink(b.path, r.log.warn)
		if err != nil {
			return err
		}
		b.sink = s
		if r.opts.Mode == ModeAuto {
			b.player = newPlayer(existing)
		}
	}
	return nil
}

// Close finishes every cassette: pending interactions are written and each
// file is put in request order. Calls still in flight are not recorded.
func (r *Recorder) Close() error {
	r.mu.Lock()
	r.closed = true
	books := make([]*book, 0, len(r.books))
	for _, b := range r.books {
		books = append(books, b)
	}
	r.mu.Unlock()
	var errs []error
	for _, b := range books {
		<-b.ready
		if b.sink != nil {
			errs = append(errs, b.sink.close())
		}
	}
	return errors.Join(errs...)
}

// RoundTrip answers one call by Mode. It returns an error only when the
// client should see the connection fail: the upstream could not be reached,
// or replay recorded exactly that.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	c := &call{
		r:      r,
		seq:    r.seq.Add(1),
		start:  time.Now(),
		req:    req,
		method: req.Method,
		host:   req.URL.Host,
		path:   req.URL.Path,
		url:    r.policy.URL(req.URL.String()),
		index:  -1,
		tools:  -1,
	}
	body, err := readBody(req)
	if err != nil {
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	c.reqBody = body
	c.reqHeader = r.policy.Header(endToEnd(req.Header))
	c.wire = providers.Detect(c.url, body, nil)
	if r.opts.Mode == ModePassthrough {
		return r.forward(c, nil)
	}
	b, err := r.book(req.URL.Host)
	if err != nil {
		return r.unavailable(c, err)
	}
	c.book = b
	c.findings = r.lint(b, c)
	if r.opts.Mode == ModeReplay || r.opts.Mode == ModeAuto {
		if f := rejection(c.findings); f != nil && r.opts.Check {
			return r.reject(c, f), nil
		}
		if e := b.player.match(c.method, target(c.url), c.wire, body); e != nil {
			return r.replay(c, e)
		}
		if r.opts.Mode == ModeReplay {
			return r.miss(c), nil
		}
	}
	return r.forward(c, b)
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	var buf bytes.Buffer
	if req.ContentLength > 0 && req.ContentLength < 64<<20 {
		buf.Grow(int(req.ContentLength) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(req.Body)
	return buf.Bytes(), err
}

// hopByHop are headers that belong to one connection, not to the call.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// endToEnd returns a copy of h without hop-by-hop headers.
func endToEnd(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for _, f := range out.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			out.Del(strings.TrimSpace(name))
		}
	}
	for _, k := range hopByHop {
		out.Del(k)
	}
	return out
}

// forward sends the call upstream and tees the response back. b is nil in
// passthrough mode: nothing is recorded.
func (r *Recorder) forward(c *call, b *book) (*http.Response, error) {
	out, err := http.NewRequestWithContext(c.req.Context(), c.method, c.req.URL.String(), bytes.NewReader(c.reqBody))
	if err != nil {
		return nil, err
	}
	out.Header = endToEnd(c.req.Header)
	// Let the transport ask for gzip and undo it, so the recorded body and
	// what the client receives are the plain bytes.
	out.Header.Del("Accept-Encoding")
	if len(c.reqBody) == 0 {
		out.Body, out.ContentLength = http.NoBody, 0
	}
	resp, err := r.up.RoundTrip(out)
	if err != nil {
		c.failed(err)
		return nil, err
	}
	c.headersAt = time.Now()
	c.status, c.statusText = resp.StatusCode, resp.Status
	c.respHeader = resp.Header.Clone()
	c.stream = isStream(resp.Header, nil)
	resp.Body = newTee(resp.Body, resp.ContentLength, c)
	// Send the body chunked: the client then sees its end only after the
	// interaction is on disk.
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

// isStream reports whether a response is an event stream.
func isStream(h http.Header, body []byte) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return strings.HasPrefix(ct, "text/event-stream") || ct == "" && body != nil && sse.Looks(body)
}

// unavailable answers a call whose cassette cannot be used. Replay has
// nothing else to answer with; the other modes still forward the call, so
// the harness keeps working, and say loudly that it is not recorded.
func (r *Recorder) unavailable(c *call, err error) (*http.Response, error) {
	if r.opts.Mode == ModeReplay {
		c.status = http.StatusInternalServerError
		c.note = "cassette unusable: " + err.Error()
		return c.synthetic(http.StatusInternalServerError, errorBody(c.wire, http.StatusInternalServerError, "llmtck replay: "+err.Error())), nil
	}
	c.note = "NOT RECORDED: " + err.Error()
	return r.forward(c, nil)
}

// lint runs the linter over the request, against the book's history.
func (r *Recorder) lint(b *book, c *call) []Finding {
	if r.opts.Linter == nil {
		return nil
	}
	next := providers.Decode(len(b.historySnapshot()), providers.Call{
		Method: c.method, URL: c.url, RequestHeader: c.reqHeader, RequestBody: c.reqBody,
	})
	return r.opts.Linter.Lint(b.historySnapshot(), &next)
}

func (b *book) historySnapshot() []engine.Exchange {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.history[:len(b.history):len(b.history)]
}

func (b *book) remember(ex engine.Exchange) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ex.Index = len(b.history)
	b.history = append(b.history, ex)
}

// reject answers a request the provider would refuse, as the provider would.
func (r *Recorder) reject(c *call, f *Finding) *http.Response {
	status := f.Status
	if status == 0 {
		status = http.StatusBadRequest
	}
	msg := f.Message
	if msg == "" {
		msg = f.Check + " at " + f.Location
	}
	c.status = status
	c.note = "rejected by " + f.Check + " (--check)"
	return c.synthetic(status, errorBody(c.wire, status, msg))
}

// miss answers a replayed call that no recording matches, naming the
// nearest recorded request and how it differs.
func (r *Recorder) miss(c *call) *http.Response {
	m := c.book.player.nearest(c.method, target(c.url), c.wire, c.reqBody)
	msg := fmt.Sprintf("llmtck replay: no recorded request in %s matches %s %s; %s", c.book.name, c.method, target(c.url), m)
	c.status = http.StatusNotFound
	c.note = "NO MATCH: " + m.String()
	return c.synthetic(http.StatusNotFound, errorBody(c.wire, http.StatusNotFound, msg))
}
