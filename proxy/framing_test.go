package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A body the provider sends with its length reaches the client with that
// length, through the base-URL recorder and through the forward proxy as a
// harness meets it (intercepting TLS), and its end only once its
// interaction is written: while the cassette cannot be written, the client
// does not have the whole body. A body of unknown length goes chunked.
func TestKnownLengthKeepsItsLengthAndWaitsForTheCassette(t *testing.T) {
	answer := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 64<<10) + `"}]}`)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Has("chunked") {
			w.Write(answer[:10])
			http.NewResponseController(w).Flush()
			w.Write(answer[10:])
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.Write(answer)
	})
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"base-url", "forward-mitm"} {
		for _, chunked := range []bool{false, true} {
			name := route + "/known-length"
			if chunked {
				name = route + "/chunked"
			}
			t.Run(name, func(t *testing.T) {
				var client *http.Client
				var target string
				var rec *Recorder
				path := filepath.Join(t.TempDir(), "c.yaml")
				switch route {
				case "base-url":
					up := httptest.NewServer(handler)
					defer up.Close()
					u, _ := url.Parse(up.URL)
					rec = mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
					front := httptest.NewServer(NewHandler(rec, u))
					defer front.Close()
					client, target = http.DefaultClient, front.URL
				case "forward-mitm":
					up := httptest.NewTLSServer(handler)
					defer up.Close()
					tr := NewUpstream()
					tr.TLSClientConfig = up.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
					rec = mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Upstream: tr})
					fwd := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca, Hosts: []string{"127.0.0.1"}}))
					defer fwd.Close()
					client, target = viaProxy(fwd.URL, ca), up.URL
				}
				defer rec.Close()
				b, err := rec.book("")
				if err != nil {
					t.Fatal(err)
				}
				query := ""
				if chunked {
					query = "?chunked"
				}
				b.sink.mu.Lock() // the cassette cannot be written
				locked := true
				defer func() {
					if locked {
						b.sink.mu.Unlock()
					}
				}()
				resp, err := client.Post(target+"/v1/messages"+query, "application/json", strings.NewReader(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if want := int64(-1); chunked && resp.ContentLength != want {
					t.Errorf("the client is told the length %d of a body the provider sent chunked", resp.ContentLength)
				}
				if want := int64(len(answer)); !chunked && resp.ContentLength != want {
					t.Errorf("the client is told the length %d, want the provider's %d", resp.ContentLength, want)
				}
				read := make(chan error, 1)
				var got []byte
				go func() {
					var err error
					got, err = io.ReadAll(resp.Body)
					read <- err
				}()
				select {
				case err := <-read:
					t.Fatalf("the client read the end of the body (%v) while its interaction could not be written", err)
				case <-time.After(200 * time.Millisecond):
				}
				b.sink.mu.Unlock()
				locked = false
				if err := <-read; err != nil || !bytes.Equal(got, answer) {
					t.Fatalf("the body's end: %v", err)
				}
				if n := len(loadStock(t, path).Interactions); n != 1 {
					t.Fatalf("the cassette holds %d interactions once the client has the body, want 1", n)
				}
			})
		}
	}
}
