package proxy

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// Appends that come while the file is being written are written in one
// shared batch: every append gets its own index, each is in the file (stock
// go-vcr loads it) as soon as its append returns, and close puts them in the
// order of their seq. An append that finds the file idle writes at once.
func TestConcurrentAppendsAreBatchedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "batch.yaml")
	s, _, err := openSink(path, func(string) {}, false)
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	idx := make([]int, n)
	var wg sync.WaitGroup
	s.mu.Lock() // the file is being written
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
	deadline := time.Now().Add(10 * time.Second)
	for joined := 0; joined < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d appends joined the batch waiting for the file", joined, n)
		}
		time.Sleep(time.Millisecond)
		s.qmu.Lock()
		if s.open != nil {
			joined = len(s.open.seqs)
		}
		s.qmu.Unlock()
	}
	s.mu.Unlock() // all n wait in one batch
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
	// The file idle again: an append writes at once, and takes the next index.
	lone := &cassette.Interaction{
		Request:  cassette.Request{Method: "POST", URL: "http://x/v1/messages", Header: http.Header{}, Body: fmt.Appendf(nil, `{"i":%d}`, n)},
		Response: cassette.Response{Status: 200, StatusText: "200 OK", Header: http.Header{}, Body: []byte(`{}`)},
	}
	if i, err := s.append(n, lone, nil); err != nil || i != n {
		t.Fatalf("an append to the idle file: index %d, %v; want %d", i, err, n)
	}
	if got := len(loadStock(t, path).Interactions); got != n+1 {
		t.Fatalf("%d interactions in the file, want %d", got, n+1)
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
	if _, err := s.append(n+1, late, nil); err != errClosed {
		t.Fatalf("append after close: %v, want errClosed", err)
	}
}
