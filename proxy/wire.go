package proxy

import (
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/sse"
)

// readBody reads a request body whole: requests are small JSON documents.
// A body of known length takes a buffer of that length and one byte, room
// for the read that finds its end (bytes.Buffer would want 512 more).
func readBody(req *http.Request) ([]byte, error) { return readBodyInto(nil, req) }

// readBodyInto is readBody into buf's room, which it grows as needed.
func readBodyInto(buf []byte, req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	size := 512
	if req.ContentLength > 0 && req.ContentLength < 64<<20 {
		size = int(req.ContentLength) + 1
	}
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	buf, err := readUpTo(buf[:0], req.Body, math.MaxInt)
	if err == io.EOF {
		err = nil
	}
	return buf, err
}

// readUpTo appends what r reads to buf, growing it as needed, until r
// returns an error (io.EOF at its end), which it returns, or buf holds more
// than limit bytes, when it returns nil.
func readUpTo(buf []byte, r io.Reader, limit int) ([]byte, error) {
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // room to read into
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// hopByHop are headers that belong to one connection, not to the call.
var hopByHop = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// endToEnd returns a copy of h without hop-by-hop headers.
func endToEnd(h http.Header) http.Header {
	return dropHopByHop(h.Clone())
}

// dropHopByHop removes hop-by-hop headers from h itself.
func dropHopByHop(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	for _, f := range h.Values("Connection") {
		for _, name := range strings.Split(f, ",") {
			h.Del(strings.TrimSpace(name))
		}
	}
	for _, k := range hopByHop {
		delete(h, k) // the names are canonical already: Del would canonicalize each again
	}
	return h
}

// isStream reports whether a response is an event stream.
func isStream(h http.Header, body []byte) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return strings.HasPrefix(ct, "text/event-stream") || ct == "" && body != nil && sse.Looks(body) || isEventStream(h, body)
}
