package proxy

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtck/llmtck/providers"
)

// tee passes an upstream response body to the client read by read — each
// event goes on as soon as it arrives — while keeping a copy, the arrival
// time of each event, and a watch for secrets. When the body ends, cleanly
// or not, the call is recorded before the end reaches the client: the end
// of a chunked body, or the last bytes of a body of known length.
type tee struct {
	// live is set for a stream (an event stream, or an endpoint that
	// streams by its path, as Gemini's JSON-array stream does): each piece
	// is sent on as it comes. Any other body is sent as one.
	live bool
	src  io.ReadCloser
	// length is the body's length when the client is told it, else -1;
	// got counts the bytes read so far.
	length, got int64
	c           *call
	body        *bodyBuffer
	keep        *keeper // keeps the body once it has grown past keepAside
	clock       *eventClock
	held        error // an error that came with the last bytes, returned next
	done        bool
	err         error  // what Read returns once done
	unread      []byte // read ahead (sendWhole), returned first
	// kept is what body held when it ended, as the cassette took it (a
	// part, when the keeping stopped early): the call's end closes body,
	// and nothing writes to these bytes again.
	kept []byte
}

// newTee tees src, whose length is known when length ≥ 0.
func newTee(src io.ReadCloser, length int64, c *call) *tee {
	body := newBodyBuffer("response.body", length)
	body.noSpill = c.book == nil // passthrough keeps a small body for the log line only
	if c.book != nil && c.stream && !c.frames {
		body.borrow = c.borrow
	}
	clock := newEventClock(c.headersAt)
	if c.frames {
		clock.frames = &frameCounter{}
	}
	live := !jsonDocument(c.respHeader) || providers.StreamedByPath(c.url)
	return &tee{live: live, src: src, length: length, c: c, body: body, clock: clock}
}

func (t *tee) Read(p []byte) (int, error) {
	if len(t.unread) > 0 {
		n := copy(p, t.unread)
		t.unread = t.unread[n:]
		return n, nil
	}
	if t.done {
		return 0, t.err
	}
	if t.held != nil {
		t.finish(t.held)
		return 0, t.err
	}
	n, err := t.src.Read(p)
	if n > 0 {
		if t.c.stream {
			t.clock.write(p[:n], time.Now())
		}
		t.keepPiece(p[:n])
		t.got += int64(n)
	}
	if err == nil && t.length >= 0 && t.got >= t.length {
		err = io.EOF // the whole body, whether or not the EOF came with it
	}
	if err != nil {
		if n > 0 && t.length < 0 {
			t.held = err // deliver the bytes first: the end is the chunked body's end
			return n, nil
		}
		t.finish(err) // before the client has the last bytes
		if n > 0 {
			return n, nil
		}
		return 0, t.err
	}
	return n, nil
}

// keepPiece keeps p with the body: in line while the body is small, then
// by a keeper. A body that is not recorded (passthrough) stays in line: it
// keeps at most a small prefix for the log line.
func (t *tee) keepPiece(p []byte) {
	if t.keep != nil {
		t.keep.write(p)
		return
	}
	t.body.Write(p)
	if !t.body.noSpill && t.body.Len() > int64(keepAside) {
		t.keep = newKeeper(t.body)
	}
}

// Close is called by whoever copies the body; before the end it means the
// client went away.
func (t *tee) Close() error {
	if !t.done {
		t.finish(errClientGone)
	}
	return t.src.Close()
}

var errClientGone = clientGone{}

type clientGone struct{}

func (clientGone) Error() string { return "the client went away" }

func (t *tee) finish(err error) {
	t.done = true
	t.err = err
	t.clock.finish(time.Now())
	if t.keep != nil {
		t.keep.wait()
	}
	cause := ""
	switch {
	case err == io.EOF:
	case err == errClientGone || t.c.req.Context().Err() != nil:
		cause = "the client went away mid-body"
	default:
		cause = "the upstream broke off the body: " + err.Error()
	}
	t.kept = t.body.Bytes()
	t.c.finished(t.body, t.clock, cause)
}

// jsonDocument reports whether h declares one JSON document.
func jsonDocument(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "application/json"
}

// wholeAt bounds the JSON answers of unknown length that sendWhole holds.
var wholeAt = 256 << 10

// sendWhole reads a JSON answer of unknown length (sent chunked, or
// compressed and undone by the transport) before the client has its
// header, and sends it with its length, in one piece: its end would wait for
// the cassette anyway, and a client behind the forward proxy then gets it in
// one TLS write, where goproxy writes a chunked body as a size line, the
// data and a CRLF per piece. An answer longer than wholeAt, or broken off,
// goes on from the tee, which returns what was read first: chunked, its end
// (or its error) after the cassette.
func sendWhole(resp *http.Response, t *tee) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf, err := readUpTo((*bp)[:0], t, wholeAt)
	if err != io.EOF {
		t.unread = bytes.Clone(buf) // buf may be the pool's
		return
	}
	read := t.kept // the cassette's copy, when it holds it all: no second one
	if !bytes.Equal(read, buf) {
		read = bytes.Clone(buf)
	}
	resp.Body = wholeBody{bytes.NewReader(read), t}
	resp.ContentLength = int64(len(read))
	resp.TransferEncoding = nil
	resp.Header.Set("Content-Length", strconv.Itoa(len(read)))
}

// wholeBody is an answer read whole; it keeps bytes.Reader's WriteTo, so
// io.Copy writes it in one piece and takes no buffer of its own.
type wholeBody struct {
	*bytes.Reader
	t *tee
}

func (b wholeBody) Close() error { return b.t.Close() }

// WriteTo is Read into a pooled buffer: io.Copy, goproxy's copy to its
// client, would take a 32 KB buffer of its own for every call.
func (t *tee) WriteTo(w io.Writer) (int64, error) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	var written int64
	for {
		n, err := t.Read(*bp)
		if n > 0 {
			m, werr := w.Write((*bp)[:n])
			written += int64(m)
			if werr != nil {
				return written, werr
			}
		}
		if err == io.EOF {
			return written, nil
		}
		if err != nil {
			return written, err
		}
	}
}
