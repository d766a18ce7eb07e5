package proxy

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// 64 calls in flight at once, finishing in the reverse of the order they
// started, are all recorded, in the order their requests started.
func TestConcurrentCallsAreAllRecordedInRequestOrder(t *testing.T) {
	const n = 64
	arrived := make(chan int, n)
	release := make([]chan struct{}, n)
	for i := range release {
		release[i] = make(chan struct{})
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ N int }
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprintf(w, "event: message_start\ndata: {\"type\":\"message_start\",\"n\":%d}\n\n", req.N)
		http.NewResponseController(w).Flush()
		arrived <- req.N
		<-release[req.N]
		fmt.Fprintf(w, "event: message_stop\ndata: {\"type\":\"message_stop\",\"n\":%d}\n\n", req.N)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "many.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()

	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(front.URL+"/v1/messages", "application/json", strings.NewReader(fmt.Sprintf(`{"N":%d}`, i)))
			if err != nil {
				errs <- err
				return
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || !strings.Contains(string(body), fmt.Sprintf(`"message_stop","n":%d}`, i)) {
				errs <- fmt.Errorf("call %d: %v %q", i, err, body)
			}
		}()
		// The next call starts only once this one reached the provider, so
		// the order of request starts is known.
		if got := <-arrived; got != i {
			t.Fatalf("call %d arrived as %d", i, got)
		}
	}
	for i := n - 1; i >= 0; i-- { // finish last-started first
		close(release[i])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c := loadStock(t, path)
	if len(c.Interactions) != n {
		t.Fatalf("%d interactions recorded, want %d", len(c.Interactions), n)
	}
	for i, in := range c.Interactions {
		if want := fmt.Sprintf(`{"N":%d}`, i); in.Request.Body != want {
			t.Fatalf("interaction %d has request %s, want %s", i, in.Request.Body, want)
		}
	}
}
