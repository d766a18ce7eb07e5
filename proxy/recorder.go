package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/reqmatch"
	"github.com/llmtck/llmtck/providers"
)

// Recorder is an http.RoundTripper that records calls into cassettes,
// replays them, or both, by Mode. The base-URL recorder, the forward proxy
// and the replay server all send their calls through one.
type Recorder struct {
	opts   Options
	policy redact.Policy
	up     http.RoundTripper
	log    *callLog

	// inflight counts calls between RoundTrip and their log line, so Close
	// records what a client is still reading (a hijacked CONNECT tunnel is
	// not waited for by http.Server.Shutdown).
	inflight inflight
	lost     lostCalls

	mu     sync.Mutex
	books  map[string]*book
	closed bool

	lastURL atomic.Pointer[recordedURL] // the latest request URL's (see recorded)
}

// recordedURL is a request URL as it is recorded, credentials masked, and
// the target replay matches of it.
type recordedURL struct {
	u           url.URL
	url, target string
}

// recorded returns u as it is recorded. The latest is remembered: a harness
// calls one or two endpoints over and over, and masking reads the whole URL.
func (r *Recorder) recorded(u *url.URL) *recordedURL {
	if m := r.lastURL.Load(); m != nil && m.u == *u {
		return m
	}
	s := r.policy.URL(u.String())
	m := &recordedURL{u: *u, url: s, target: reqmatch.Target(s)}
	r.lastURL.Store(m)
	return m
}

// closeWait bounds how long Close waits for calls in flight. A variable so
// tests can close a recorder under a call.
var closeWait = 10 * time.Second

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
	r.policy = redact.Default().WithHeaders(opts.RedactHeaders...)
	if opts.Cassette != "" && opts.Mode != ModePassthrough {
		if _, err := r.book(""); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Close finishes every cassette: it waits up to closeWait for calls in
// flight (and for the log lines of linted calls, which follow their
// answers), writes pending interactions and puts each file in request order.
// It fails when any call was not recorded (its client was served all the
// same), saying how many and why, so a recording session that lost calls
// does not end as if it were whole.
func (r *Recorder) Close() error {
	var lost error
	select {
	case <-r.inflight.idle():
	case <-time.After(closeWait):
		lost = fmt.Errorf("calls still in flight after %s are not recorded", closeWait)
	}
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
		if b.sink == nil {
			b.lines.flush()
			continue
		}
		err := b.sink.close()
		b.lines.flush() // the calls still in flight can no longer be recorded
		if err == nil {
			err = b.writeEphemeral()
		}
		if err == nil && r.opts.CassetteFormat == "v4" {
			err = toV4(b.path)
		}
		b.lock.release()
		errs = append(errs, err)
	}
	return errors.Join(append(errs, lost, r.lost.err())...)
}

// RoundTrip answers one call by Mode. It returns an error only when the
// client should see the connection fail: the upstream could not be reached,
// or replay recorded exactly that.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	return r.roundTrip(req, false)
}

// roundTrip is RoundTrip; a caller that only reads the response's header
// (the Handler, which copies it) may take a replayed one shared between
// replays of the same interaction instead of a copy of its own.
func (r *Recorder) roundTrip(req *http.Request, readHeaderOnly bool) (*http.Response, error) {
	u := r.recorded(req.URL)
	c := &call{
		r:              r,
		readHeaderOnly: readHeaderOnly,
		start:          time.Now(),
		req:            req,
		method:         req.Method,
		host:           req.URL.Host,
		path:           req.URL.Path,
		url:            u.url,
		target:         u.target,
		index:          -1,
		tools:          -1,
	}
	r.inflight.add()
	var body []byte
	var err error
	if r.opts.Mode == ModeReplay && r.opts.Judge == nil {
		// Nothing keeps the body of a plain replay once the call is
		// answered (a linter would): its buffer serves the next call.
		bp := encodeBuffers.Get().(*[]byte)
		defer func() {
			c.reqBody = nil
			if cap(*bp) <= maxPooled {
				encodeBuffers.Put(bp)
			}
		}()
		body, err = readBodyInto(*bp, req)
		if cap(body) > cap(*bp) {
			*bp = body // grown: the larger goes back
		}
	} else {
		body, err = readBody(req)
	}
	if err != nil {
		c.addNote("reading the request body: " + err.Error())
		c.end(verbFor(nil), time.Since(c.start))
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	c.reqBody = body
	ephemeral := takeEphemeral(req.Header) // never forwarded, never recorded
	if r.opts.Mode != ModeReplay || r.opts.Judge != nil {
		// What is recorded or judged; a plain replay needs neither.
		c.reqHeader = dropHopByHop(r.policy.Header(req.Header))
	}
	c.wire = providers.Detect(c.url, body, nil)
	if r.opts.Mode == ModePassthrough {
		return r.forward(c, nil)
	}
	b, err := r.book(req.URL.Host)
	if err != nil {
		return r.unavailable(c, err)
	}
	c.book = b
	b.lines.start(c)
	b.declare(ephemeral)
	verdict := r.lint(b, c)
	if r.opts.Mode == ModeReplay || r.opts.Mode == ModeAuto {
		if rj := verdict.Rejection; rj != nil && r.opts.Check {
			return r.reject(c, rj), nil
		}
		if e := b.player.match(c.method, c.target, c.req.Header, c.wire, body); e != nil {
			return r.replay(c, e)
		}
		if r.opts.Mode == ModeReplay {
			return r.miss(c), nil
		}
	}
	return r.forward(c, b)
}

// forward sends the call upstream and tees the response back. b is nil in
// passthrough mode: nothing is recorded.
func (r *Recorder) forward(c *call, b *book) (*http.Response, error) {
	out, err := http.NewRequestWithContext(c.req.Context(), c.method, c.req.URL.String(), bytes.NewReader(c.reqBody))
	if err != nil {
		c.addNote(err.Error())
		c.end(verbFor(b), time.Since(c.start))
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
		return c.unreachable(err)
	}
	c.headersAt = time.Now()
	c.status, c.statusText = resp.StatusCode, resp.Status
	c.respHeader = r.policy.Header(resp.Header) // a copy: resp.Header changes below
	c.stream = isStream(resp.Header, nil)
	c.frames = isEventStream(resp.Header, nil)
	// The client sees the end of the body only after the interaction is
	// written to the cassette. A body of known length keeps it, as the
	// provider sent it, and its last bytes wait (see tee); behind the
	// forward proxy, a JSON answer of unknown length is read whole first
	// (sendWhole); any other is sent chunked, and its end waits.
	if resp.ContentLength <= 0 || c.method == http.MethodHead {
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
	}
	t := newTee(resp.Body, resp.ContentLength, c)
	resp.Body = t
	// The base-URL handler (readHeaderOnly) sends such an answer in one
	// write already; reading it ahead there would only add a copy to every
	// call.
	if !t.live && resp.ContentLength < 0 && c.method != http.MethodHead && !c.readHeaderOnly {
		sendWhole(resp, t)
	}
	return resp, nil
}

// unavailable answers a call whose cassette cannot be used. Replay has
// nothing else to answer with; the other modes still forward the call, so
// the harness keeps working, and say loudly that it is not recorded.
func (r *Recorder) unavailable(c *call, err error) (*http.Response, error) {
	if r.opts.Mode == ModeReplay {
		c.status = http.StatusInternalServerError
		c.note = "cassette unusable: " + err.Error()
		return c.synthetic(http.StatusInternalServerError, providers.ErrorBody(c.wire, http.StatusInternalServerError, "llmtck replay: "+err.Error())), nil
	}
	c.notRecorded("the cassette could not be opened", err.Error())
	return r.forward(c, nil)
}

// lint judges the request against the calls before it on the same
// cassette: at once when the verdict can refuse it, else on the cassette's
// lint queue (the verdict then only goes to the log line).
func (r *Recorder) lint(b *book, c *call) lint.Verdict {
	switch {
	case b.lint == nil:
		return lint.Verdict{}
	case b.queue != nil:
		c.queued = true
		b.queue.push(func() { c.judge() })
		return lint.Verdict{}
	}
	return c.judge()
}

// refuses reports whether a request's verdict can refuse it (--check), so
// it must be judged before it is answered.
func (r *Recorder) refuses() bool {
	return r.opts.Check && (r.opts.Mode == ModeReplay || r.opts.Mode == ModeAuto)
}

// reject answers a request the provider would refuse, as the provider would.
func (r *Recorder) reject(c *call, rj *lint.Rejection) *http.Response {
	c.status = rj.Status
	c.note = "rejected by " + rj.Check + " (--check)"
	return c.synthetic(rj.Status, rj.Body)
}

// miss answers a replayed call that no recording matches, naming the
// nearest recorded request and how it differs.
func (r *Recorder) miss(c *call) *http.Response {
	m := c.book.player.nearest(c.method, c.target, c.wire, c.reqBody)
	msg := fmt.Sprintf("llmtck replay: no recorded request in %s matches %s %s; %s", c.book.name, c.method, redact.Text(c.target), m)
	c.status = http.StatusNotFound
	c.note = "NO MATCH: " + m.String()
	return c.synthetic(http.StatusNotFound, providers.ErrorBody(c.wire, http.StatusNotFound, msg))
}
