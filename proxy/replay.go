package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/providers"
)

// rememberReplayed adds the call, answered with the recording rec, to the
// linter's history.
func (c *call) rememberReplayed(rec *cassette.Response) {
	call := providers.Call{
		Method: c.method, URL: c.url, RequestHeader: c.reqHeader, RequestBody: c.reqBody,
		Status: rec.Status, ResponseHeader: rec.Header, ResponseBody: rec.Body, Duration: rec.Duration,
	}
	// The linter decodes the recorded answer when a later request
	// continues its conversation.
	later := providers.DeferResponse(c.ex, call)
	if later == nil {
		providers.AddResponse(c.ex, call)
	}
	c.book.remember(*c.ex, later)
}

// replay serves a recorded interaction: its status and headers, then its
// body — event by event for a stream, paced by Options.Timing. A recording
// of a failure is replayed as that failure: no response at all, or a body
// that breaks off where it did.
func (r *Recorder) replay(c *call, e *entry) (*http.Response, error) {
	rec := &e.in.Response
	a := e.reply()
	c.index, c.replayOf = e.index, e.final
	c.status = rec.Status
	c.stream = a.stream
	if r.log.w != nil {
		c.tools = e.toolCalls()
	}
	switch {
	case c.queued:
		c.book.queue.push(func() { c.rememberReplayed(rec) })
	case c.ex != nil: // linted: the request was decoded on arrival
		c.rememberReplayed(rec)
	}

	chunks, at, end := a.chunks, a.at, a.end
	scale := r.opts.Timing.Scale
	// The recorded duration runs from the request to the end of the body;
	// what the body took after the headers was not spent before them.
	wait := rec.Duration
	switch {
	case end >= 0:
		wait -= end
	case len(at) > 0:
		wait -= at[len(at)-1] // an older recording, without the end
	}
	if err := sleep(c.req.Context(), scaled(wait, scale)); err != nil {
		c.addNote("the client went away before the response")
		c.end("replay", time.Since(c.start))
		return nil, err
	}
	if rec.Status == 0 {
		c.addNote("replayed a failed call: " + a.failure)
		c.end("replay", time.Since(c.start))
		return nil, fmt.Errorf("replayed failure: %s", a.failure)
	}
	truncated := a.truncated
	if truncated != "" {
		c.addNote("replaying a truncated body: " + truncated)
	}
	body := &replayBody{
		ctx: c.req.Context(), chunks: chunks, at: at, scale: scale,
		start: time.Now(), truncated: truncated != "",
		done: func() { c.end("replay", time.Since(c.start)) },
	}
	// Unpaced and complete, the whole body is due at once: it goes in one
	// piece with its length. Paced or cut off, it goes chunked, piece by piece.
	length := int64(-1)
	if (!c.stream || scale == 0) && truncated == "" {
		length = int64(len(rec.Body))
	}
	header := a.header
	if !c.readHeaderOnly {
		header = header.Clone()
	}
	return &http.Response{
		StatusCode:    rec.Status,
		Status:        a.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          body,
		ContentLength: length,
		Request:       c.req,
	}, nil
}

// served is the recorded header as replay sends it: without llmtck's own
// notes, and without framing and hop-by-hop headers, which the new
// connection sets itself.
func served(h http.Header, body []byte) http.Header {
	out := dropHopByHop(h.Clone())
	for _, k := range []string{headerTruncated, headerIncomplete, headerError, "Content-Length"} {
		out.Del(k)
	}
	// Other tools' recordings keep Content-Encoding although they store the
	// body decoded; claim an encoding only when the bytes carry it.
	if ce := out.Get("Content-Encoding"); ce != "" && !(strings.EqualFold(ce, "gzip") && bytes.HasPrefix(body, []byte{0x1f, 0x8b})) {
		out.Del("Content-Encoding")
	}
	return out
}

// split cuts a recorded body into what replay writes at once, and when:
// for a stream, one piece per event (as sse.Parse splits it) at the event's
// recorded offset; otherwise the whole body at once.
// The third result is the recorded end of the body after the headers, or
// -1 when the recording does not say.
func split(rec *cassette.Response, stream bool) ([][]byte, []time.Duration, time.Duration) {
	if !stream {
		return [][]byte{rec.Body}, nil, -1
	}
	if eventstream.Looks(rec.Body) {
		return splitFrames(rec.Body, rec.EventOffsets)
	}
	events := sse.Parse(rec.Body)
	offsets, end := endOf(rec.EventOffsets, len(events))
	timed := len(offsets) == len(events)
	var chunks [][]byte
	var at []time.Duration
	prev := 0
	for i, ev := range events {
		chunks = append(chunks, rec.Body[prev:ev.End])
		prev = ev.End
		if timed {
			at = append(at, offsets[i])
		} else {
			at = append(at, 0)
		}
	}
	if prev < len(rec.Body) || len(chunks) == 0 {
		chunks = append(chunks, rec.Body[prev:]) // comments or blank lines after the last event
		if len(at) > 0 {
			at = append(at, at[len(at)-1])
		} else {
			at = append(at, 0)
		}
	}
	return chunks, at, end
}

// endOf tells the offsets of n pieces from the end offset llmtck records
// after them: offsets of n+1 are the pieces' and the end's.
func endOf(offsets []time.Duration, n int) ([]time.Duration, time.Duration) {
	if len(offsets) == n+1 {
		return offsets[:n], offsets[n]
	}
	return offsets, -1
}

func scaled(d time.Duration, scale float64) time.Duration {
	if d <= 0 || scale == 0 {
		return 0
	}
	return time.Duration(float64(d) * scale)
}

// spin is how much of a wait sleep spends yielding instead of on a timer:
// an idle process's timers wake up to a millisecond late (the poller's
// timeout is in milliseconds), which would shift every replayed event.
const spin = 1500 * time.Microsecond

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	deadline := time.Now().Add(d)
	if d > spin {
		t := time.NewTimer(d - spin)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		runtime.Gosched()
	}
	return nil
}

// replayBody serves the pieces of a recorded body, each no earlier than
// its offset from the start, one piece per Read so each is flushed alone;
// without pacing (instant timing), events that are all due at once are
// sent together.
type replayBody struct {
	ctx       context.Context
	chunks    [][]byte
	at        []time.Duration
	scale     float64
	start     time.Time
	truncated bool // end with an error, as the recorded body did
	done      func()

	i    int
	cur  []byte
	once sync.Once
}

// errTruncated ends a replayed body that was cut off when recorded.
var errTruncated = errors.New("llmtck replay: the recorded body was cut off here")

func (b *replayBody) Read(p []byte) (int, error) {
	for len(b.cur) == 0 {
		if b.i == len(b.chunks) {
			b.once.Do(b.done)
			if b.truncated {
				return 0, errTruncated
			}
			return 0, io.EOF
		}
		if b.scale > 0 && b.i < len(b.at) { // a JSON body has no offsets: it is due at once
			if err := sleep(b.ctx, time.Until(b.start.Add(scaled(b.at[b.i], b.scale)))); err != nil {
				b.once.Do(b.done)
				return 0, err
			}
		}
		b.cur = b.chunks[b.i]
		b.i++
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	// Unpaced, every event is due now: send as many as fit at once.
	for b.scale == 0 && len(b.cur) == 0 && b.i < len(b.chunks) && n < len(p) {
		b.cur = b.chunks[b.i]
		b.i++
		m := copy(p[n:], b.cur)
		b.cur = b.cur[m:]
		n += m
	}
	return n, nil
}

// writeAll writes the pieces of a body that is due at once and complete
// (unpaced, not cut off: sent with its length) straight to w. A write
// that fails means the client went away; closing the body records that.
func (b *replayBody) writeAll(w io.Writer) {
	for ; b.i < len(b.chunks); b.i++ {
		if _, err := w.Write(b.chunks[b.i]); err != nil {
			return
		}
	}
	b.once.Do(b.done)
}

func (b *replayBody) Close() error {
	b.once.Do(b.done)
	return nil
}
