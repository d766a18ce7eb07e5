package proxy

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// dropHopByHop removes every hop-by-hop header, as net/http stores it, and
// those the Connection header names, and nothing else.
func TestDropHopByHop(t *testing.T) {
	h := http.Header{}
	for _, k := range hopByHop {
		h.Set(k, "x")
	}
	h.Set("Connection", "x-custom-hop, Keep-Alive")
	h.Set("X-Custom-Hop", "1")
	h.Set("Content-Type", "application/json")
	h.Set("Anthropic-Version", "2023-06-01")
	want := http.Header{"Content-Type": {"application/json"}, "Anthropic-Version": {"2023-06-01"}}
	if diff := cmp.Diff(want, dropHopByHop(h)); diff != "" {
		t.Errorf("dropHopByHop mismatch (-want +got):\n%s", diff)
	}
	for _, k := range hopByHop {
		if http.CanonicalHeaderKey(k) != k {
			t.Errorf("hopByHop holds %q, which is not canonical: deleting it by name misses the header", k)
		}
	}
}

// readBody returns every byte of the body, whatever its length says, and
// the error that broke it off; a body of known length takes a buffer of
// that length and one byte, no more.
func TestReadBody(t *testing.T) {
	body := strings.Repeat("x", 1500)
	broken := errors.New("connection reset")
	for _, tc := range []struct {
		name    string
		length  int64
		r       io.Reader
		want    string
		wantErr error
		wantCap int // the buffer's size, when it is known from the length
	}{
		{"known length", 1500, strings.NewReader(body), body, nil, 1501},
		{"unknown length", -1, strings.NewReader(body), body, nil, 0},
		{"longer than it says", 100, strings.NewReader(body), body, nil, 0},
		{"shorter than it says", 2000, strings.NewReader(body), body, nil, 2001},
		{"broken off", 1500, io.MultiReader(strings.NewReader(body[:700]), iotest.ErrReader(broken)), body[:700], broken, 1501},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := &http.Request{Body: io.NopCloser(tc.r), ContentLength: tc.length}
			got, err := readBody(req)
			if string(got) != tc.want || err != tc.wantErr {
				t.Fatalf("got %d bytes and %v, want %d and %v", len(got), err, len(tc.want), tc.wantErr)
			}
			if tc.wantCap > 0 && cap(got) != tc.wantCap {
				t.Errorf("a body of length %d took %d bytes of buffer, want %d", tc.length, cap(got), tc.wantCap)
			}
		})
	}
}
