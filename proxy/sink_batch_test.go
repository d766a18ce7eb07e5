package proxy

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/llmtck/llmtck/internal/cassette"
)

// Appends racing each other are written in shared batches: every append
// gets its own index, each is in the file (stock go-vcr loads it) as soon as
// its append returns, and close puts them in the order of their seq.
func TestConcurrentAppendsAreBatchedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "batch.yaml")
	s, _, err := openSink(path, func(string) {}, false)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	idx := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := &cassette.Interaction{
				Request:  cassette.Request{Method: "POST", URL: "http://x/v1/messages", Header: http.Header{}, Body: fmt.Appendf(nil, `{"i":%d}`, i)},
				Response: cassette.Response{Status: 200, StatusText: "200 OK", Header: http.Header{}, Body: fmt.Appendf(nil, `{"answer":%d}`, i)},
			}
			var aerr error
			if idx[i], aerr = s.append(uint64(i), in, nil); aerr != nil {
				t.Error(aerr)
			}
		}()
	}
	wg.Wait()
	// Before close: every append is written (a kill -9 now loses none).
	if got := len(loadStock(t, path).Interactions); got != n {
		t.Fatalf("%d interactions in the file before close, want %d", got, n)
	}
	sorted := slices.Sorted(slices.Values(idx))
	for i, v := range sorted {
		if v != i {
			t.Fatalf("indices are not 0..%d each once: %v", n-1, sorted)
		}
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
	c := loadStock(t, path)
	for i, in := range c.Interactions {
		if want := fmt.Sprintf(`{"i":%d}`, i); in.Request.Body != want {
			t.Fatalf("interaction %d holds %s, want %s (request order)", i, in.Request.Body, want)
		}
	}
	late := &cassette.Interaction{Request: cassette.Request{Header: http.Header{}}, Response: cassette.Response{Header: http.Header{}}}
	if _, err := s.append(n, late, nil); err != errClosed {
		t.Fatalf("append after close: %v, want errClosed", err)
	}
}
