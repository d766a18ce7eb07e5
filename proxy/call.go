package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// call is one request on its way through the recorder, from arrival to its
// log line.
type call struct {
	r     *Recorder
	book  *book // nil when nothing is recorded (passthrough)
	seq   uint64
	start time.Time
	req   *http.Request
	// readHeaderOnly is set when the caller will not change the response's
	// header, so a replay can hand it the one it shares.
	readHeaderOnly bool

	method, host, path string
	url                string // redacted
	target             string // what replay matches of url: path and query
	wire               traffic.Wire
	reqHeader          http.Header // redacted, hop-by-hop headers removed
	reqBody            []byte
	findings           []check.Finding
	// ex is the call decoded: its request on arrival when it is linted,
	// its response added once the body has ended.
	ex *traffic.Exchange
	// queued is set when the call is linted on its cassette's lint queue:
	// ex and findings are then the queue's, and the log line is written
	// by it.
	queued bool

	headersAt  time.Time
	status     int
	statusText string
	respHeader http.Header // as received, redacted
	stream     bool
	frames     bool // the stream is an AWS event stream

	index int // in the cassette; -1 when not recorded
	// appended is set once the call is in the cassette: its index is then
	// its place in the file Close leaves, given when its line is released
	// (see lineOrder, which guards both from then on).
	appended bool
	// final is that place, for the replays of the call in auto mode;
	// replayOf is final of the call this one replays, when that call was
	// recorded in this session.
	final, replayOf *placement
	line            line   // its log line, once it has ended (see lineOrder)
	tools           int    // tool calls in the response; -1 when unknown
	note            string // what went wrong, for the log line
	ended           atomic.Bool
}

// finished records a forwarded call once its body has ended. cause is empty
// for a complete body, else why it ended early. It returns only once the
// interaction is written.
func (c *call) finished(body *bodyBuffer, clock *eventClock, cause string) {
	defer body.Close()
	dur := time.Since(c.start)
	header := c.respHeader
	if cause != "" {
		header.Set(headerTruncated, cause)
		c.addNote("truncated: " + cause)
	}
	in := &cassette.Interaction{
		Request: c.recorded(),
		Response: cassette.Response{
			Status: c.status, StatusText: c.statusText, Header: header,
			Body: body.Bytes(), Duration: dur,
		},
	}
	var ex *traffic.Exchange
	var later func(*traffic.Exchange)
	switch {
	case !c.queued:
		ex, later = c.decode(in, c.ex)
	case c.stream:
		// The response alone, to tell a stream cut short before it is
		// recorded; the queue joins it to the request it decodes.
		ex, _ = c.decode(in, nil)
	}
	if c.stream {
		// Each event's offset, then the end of the body's, so replay can
		// tell the wait before the headers from the time after the last event.
		in.Response.EventOffsets = append(append(make([]time.Duration, 0, len(clock.offsets)+1), clock.offsets...), clock.end)
		// A body that ended cleanly can still stop short of the stream's
		// terminal event: the upstream closed it early, at a message boundary.
		if s := streamOf(ex); cause == "" && s != nil && s.Truncated {
			header.Set(headerIncomplete, "the stream ended before its terminal event")
			c.addNote("incomplete stream")
		}
	}
	if c.book != nil {
		c.record(in, body)
	}
	c.endAfter(func() {
		if c.queued {
			ex, later = c.decodeQueued(in, ex)
		}
		if ex != nil && c.book != nil && c.book.lint != nil {
			c.book.remember(*ex, later)
		}
	}, verbFor(c.book), dur)
}

// decodeQueued is decode on the lint queue, where the request was decoded:
// a stream's response, decoded alone on the call's path, is joined to it.
func (c *call) decodeQueued(in *cassette.Interaction, resp *traffic.Exchange) (*traffic.Exchange, func(*traffic.Exchange)) {
	if !c.stream {
		return c.decode(in, c.ex)
	}
	if resp == nil {
		return nil, nil
	}
	providers.JoinResponse(c.ex, resp)
	return c.ex, nil
}

// judge decodes the request once, for the linter and then the cassette's
// history, and judges it against the calls answered before it.
func (c *call) judge() lint.Verdict {
	ex := providers.Decode(0, providers.Call{
		Method: c.method, URL: c.url, RequestHeader: c.reqHeader, RequestBody: c.reqBody, Wire: c.wire, Memo: c.book.memo,
	})
	c.ex = &ex
	v := c.book.judge(ex)
	c.findings = v.Findings
	return v
}

// recorded is the request as the cassette holds it.
func (c *call) recorded() cassette.Request {
	return cassette.Request{Method: c.method, URL: c.url, Header: c.reqHeader, Body: c.reqBody}
}

// borrow asks the cassette for its end, to write the response body of an
// event stream into as it arrives (see lease). A request holding a
// credential gets none: it would be written before record refuses it.
func (c *call) borrow(first byte) *lease {
	req := c.recorded()
	if c.book.requestLeak(&req) != nil {
		return nil
	}
	head, _, err := spilledFrame(&cassette.Interaction{Request: req})
	if err != nil {
		return nil
	}
	return c.book.sink.borrow(head, first)
}

func streamOf(ex *traffic.Exchange) *traffic.Stream {
	if ex == nil || ex.Response == nil {
		return nil
	}
	return ex.Response.Stream
}

func verbFor(b *book) string {
	if b == nil {
		return "pass"
	}
	return "record"
}

// unreachable answers a call the upstream did not answer. A client that
// went away gets nothing; otherwise the client gets a 502 in the wire's
// error envelope naming the upstream and the error. Nothing is recorded:
// a cassette holds answers, and replay must never serve a failure that was
// only the network's.
func (c *call) unreachable(err error) (*http.Response, error) {
	dur := time.Since(c.start)
	cause := strings.ReplaceAll(err.Error(), c.req.URL.String(), c.url)
	if c.req.Context().Err() != nil {
		c.addNote("no response: the client went away before the response: " + cause)
		c.end(verbFor(c.book), dur)
		return nil, err
	}
	c.status = http.StatusBadGateway
	c.addNote("NOT RECORDED: the upstream did not answer: " + cause)
	c.end(verbFor(c.book), dur)
	msg := fmt.Sprintf("llmtck: the upstream %s did not answer: %s", c.req.URL.Host, cause)
	body := providers.ErrorBody(c.wire, http.StatusBadGateway, msg)
	return &http.Response{
		StatusCode: http.StatusBadGateway, Status: "502 Bad Gateway",
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}, headerError: {cause}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       c.req,
	}, nil
}

// record appends in to the cassette unless it holds a secret.
func (c *call) record(in *cassette.Interaction, body *bodyBuffer) {
	if leak := c.book.leakIn(in, body); leak != nil {
		c.notRecorded("it holds a credential", leak.Error())
		return
	}
	if body != nil && body.err != nil {
		c.notRecorded("keeping the body failed", "keeping the body failed: "+body.err.Error())
		return
	}
	idx, err := c.book.sink.append(c.seq, in, body)
	if err != nil {
		c.notRecorded("writing the cassette failed", err.Error())
		return
	}
	var final *placement
	replayable := c.book.player != nil && (body == nil || !body.Spilled())
	if replayable {
		final = &placement{}
	}
	c.book.lines.recorded(c, idx, final)
	if replayable {
		c.book.player.add(idx, in, final) // auto mode replays it from now on
	}
}

// leakIn scans everything of in that would be written for credentials. The
// response body was scanned as it streamed by, for the credentials known by
// their shape; one still in memory is looked at whole for those known by
// their name (an AWS secret access key), which a stream split into events
// would not hold in one piece anyway.
func (b *book) leakIn(in *cassette.Interaction, body *bodyBuffer) *redact.Leak {
	if l := b.requestLeak(&in.Request); l != nil {
		return l
	}
	if l := redact.ScanHeader("response.headers", in.Response.Header); l != nil {
		return l
	}
	if body == nil {
		return nil
	}
	if l := body.scan.Leak(); l != nil {
		return l
	}
	return redact.ScanNamed("response.body", body.Bytes())
}

// requestLeak scans what of req would be written for credentials. A body
// that repeats the last one found clean is scanned from where it departs
// from it, so a growing conversation is scanned in time linear in its new
// content (and a request scanned before its stream spilled, again at once).
func (b *book) requestLeak(req *cassette.Request) *redact.Leak {
	if l := redact.ScanAll("request.url", []byte(req.URL)); l != nil {
		return l
	}
	if l := redact.ScanHeader("request.headers", req.Header); l != nil {
		return l
	}
	b.cleanMu.Lock()
	from := redact.Resume(b.clean, req.Body)
	b.cleanMu.Unlock()
	if l := redact.ScanBody("request.body", req.Body[from:]); l != nil {
		l.Offset += int64(from)
		return l
	}
	b.cleanMu.Lock()
	b.clean = req.Body
	b.cleanMu.Unlock()
	return nil
}

// decode decodes what the call's end needs of its response: a stream, to
// tell one cut short; the tool calls, for the log line; the whole call, for
// the linter. The response is added to req, the request decoded on arrival,
// or decoded alone when req is nil. It sets c.tools. ex is nil when nothing
// needs it, or when the body was too large to keep in memory. A JSON answer
// the log does not count, or can count without decoding, is left for the
// linter to decode when a later request continues its conversation (later;
// most are never: an eval harness's).
func (c *call) decode(in *cassette.Interaction, req *traffic.Exchange) (ex *traffic.Exchange, later func(*traffic.Exchange)) {
	if in.Response.Body == nil || !c.stream && c.r.log.w == nil && req == nil {
		return nil, nil
	}
	call := providers.Call{
		Method: in.Request.Method, URL: in.Request.URL,
		RequestHeader: in.Request.Header, RequestBody: in.Request.Body,
		Status: in.Response.Status, ResponseHeader: in.Response.Header,
		ResponseBody: in.Response.Body, Duration: in.Response.Duration,
	}
	if c.book != nil { // a passthrough call has none
		call.Memo = c.book.memo
	}
	if !c.stream {
		// An answer the log need not count, or can count without decoding.
		counted := c.r.log.w == nil
		if !counted && providers.NoToolCalls(call.Status, call.ResponseHeader, call.ResponseBody) {
			c.tools, counted = 0, true
		}
		if counted {
			if req == nil {
				return nil, nil // only the log wanted it
			}
			if later := providers.DeferResponse(req, call); later != nil {
				return req, later
			}
		}
	}
	ex = req
	if ex == nil {
		// Nothing here reads the request: decode the response alone (a
		// growing conversation's request is the larger by far), unless
		// only the response can tell the wire.
		ex = &traffic.Exchange{Method: call.Method, URL: call.URL, Wire: c.wire}
	}
	providers.AddResponse(ex, call)
	c.tools = countTools(ex.Response)
	return ex, nil
}

func countTools(resp *traffic.Response) int {
	if resp == nil {
		return -1
	}
	n := 0
	for _, m := range resp.Output {
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockToolCall {
				n++
			}
		}
	}
	return n
}

func (c *call) addNote(s string) {
	if c.note != "" {
		c.note += "; "
	}
	c.note += s
}

// end writes the call's log line and tells the recorder the call is over;
// Close waits for calls in flight.
func (c *call) end(verb string, d time.Duration) { c.endAfter(nil, verb, d) }

// endAfter is end that first runs then (which remembers the call for the
// linter), on the lint queue when the call was judged there.
func (c *call) endAfter(then func(), verb string, d time.Duration) {
	if c.ended.Swap(true) {
		return
	}
	if c.queued {
		c.book.queue.push(func() {
			// Even when then panics: the lines of later calls and Close
			// wait for this one. The queue writes it with its batch's.
			defer c.book.lines.doneLater(c, verb, d)
			if then != nil {
				then()
			}
		})
		return
	}
	defer c.logLine(verb, d)
	if then != nil {
		then()
	}
}

// logLine writes the call's log line, after those of the calls that
// started before it on the same cassette.
func (c *call) logLine(verb string, d time.Duration) {
	if c.book == nil {
		c.line = line{ready: true, verb: verb, dur: d}
		writeLines([]*call{c})
		return
	}
	c.book.lines.done(c, verb, d)
}

// synthetic is a response llmtck makes itself (a miss, a --check
// rejection); it is logged at once.
func (c *call) synthetic(status int, body []byte) *http.Response {
	c.status = status
	c.end("replay", time.Since(c.start))
	return &http.Response{
		StatusCode:    status,
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       c.req,
	}
}
