package cassette

import (
	"net/http"
	"strconv"
	"testing"
)

// keepHeaderByCanonicalKey is keepHeader as it was first written: every
// key canonicalised, then compared.
func keepHeaderByCanonicalKey(k string, h http.Header, body []byte) bool {
	switch http.CanonicalHeaderKey(k) {
	case "Content-Encoding":
		return encodingMatches(h[k], body)
	case "Content-Length":
		v := h[k]
		return len(v) == 1 && v[0] == strconv.Itoa(len(body))
	}
	return true
}

// FuzzKeepHeader holds keepHeader to the canonical-key comparison for any
// header name and value a recording may carry.
func FuzzKeepHeader(f *testing.F) {
	for _, k := range []string{"Content-Length", "content-length", "CONTENT-LENGTH", "Content-Length ", "content_length",
		"Content-Encoding", "content-encoding", "Content-\u212aength", "Content-Encoding\x00", "X-Other", ""} {
		f.Add(k, "3", []byte("abc"))
		f.Add(k, "gzip", []byte("\x1f\x8b\x08"))
	}
	f.Fuzz(func(t *testing.T, k, v string, body []byte) {
		h := http.Header{k: {v}}
		if got, want := keepHeader(k, h, body), keepHeaderByCanonicalKey(k, h, body); got != want {
			t.Errorf("keepHeader(%q: %q, %d bytes) = %v, the canonical key's comparison says %v", k, v, len(body), got, want)
		}
	})
}
