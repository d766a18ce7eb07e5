package proxy

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/sse"
)

// readBody reads a request body whole: requests are small JSON documents.
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
