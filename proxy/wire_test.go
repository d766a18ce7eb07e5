package proxy

import (
	"net/http"
	"testing"

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
