package proxy

import (
	"bytes"
	"errors"
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

// What a client is told of a recorded body's length, through the base-URL
// recorder and through the forward proxy as a harness meets it
// (intercepting TLS), and that it has the body's end only once its
// interaction is written: while the cassette cannot be written, the client
// does not have the whole body.
//   - A body the provider sends with its length keeps it.
//   - Behind the forward proxy, a JSON answer sent chunked is read whole
//     and sent with its length; the base-URL recorder sends it chunked.
//   - A JSON answer longer than wholeAt, and any other chunked body, goes
//     on chunked.
func TestRecordedBodyFraming(t *testing.T) {
	defer func(n int) { wholeAt = n }(wholeAt)
	wholeAt = 32 << 10
	answer := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 16<<10) + `"}]}`)
	long := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("x", 64<<10) + `"}]}`)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		body := answer
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("as") {
		case "length":
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		case "long":
			body = long
		case "text":
			w.Header().Set("Content-Type", "text/plain")
		}
		w.Write(body[:10])
		http.NewResponseController(w).Flush() // chunked, unless its length was set
		w.Write(body[10:])
	})
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []string{"base-url", "forward-mitm"} {
		for _, tc := range []struct {
			as     string
			want   []byte
			length bool // the forward proxy's client is told the length
		}{
			{"length", answer, true},
			{"chunked", answer, true},
			{"long", long, false},
			{"text", answer, false},
		} {
			t.Run(route+"/"+tc.as, func(t *testing.T) {
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
				b.sink.mu.Lock() // the cassette cannot be written
				locked := true
				defer func() {
					if locked {
						b.sink.mu.Unlock()
					}
				}()
				type result struct {
					length int64
					body   []byte
					err    error
				}
				done := make(chan result, 1)
				go func() {
					resp, err := client.Post(target+"/v1/messages?as="+tc.as, "application/json", strings.NewReader(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
					if err != nil {
						done <- result{err: err}
						return
					}
					defer resp.Body.Close()
					body, err := io.ReadAll(resp.Body)
					done <- result{resp.ContentLength, body, err}
				}()
				select {
				case r := <-done:
					t.Fatalf("the client had the whole body (%v) while its interaction could not be written", r.err)
				case <-time.After(200 * time.Millisecond):
				}
				b.sink.mu.Unlock()
				locked = false
				r := <-done
				if r.err != nil || !bytes.Equal(r.body, tc.want) {
					t.Fatalf("the body: %v, %d bytes of %d", r.err, len(r.body), len(tc.want))
				}
				told := tc.length && !(route == "base-url" && tc.as == "chunked")
				switch {
				case told && r.length != int64(len(tc.want)):
					t.Errorf("the client is told the length %d, want %d", r.length, len(tc.want))
				case !told && r.length != -1:
					t.Errorf("the client is told the length %d, want the body chunked", r.length)
				}
				if n := len(loadStock(t, path).Interactions); n != 1 {
					t.Fatalf("the cassette holds %d interactions once the client has the body, want 1", n)
				}
			})
		}
	}
}

// A JSON answer the upstream breaks off, which llmtck reads whole before
// sending it on, reaches the client broken off as it would without llmtck,
// and is recorded as broken off.
func TestBrokenOffJSONAnswer(t *testing.T) {
	h := faultyProvider(nil)
	direct := httptest.NewServer(h)
	defer direct.Close()
	_, directBody, directErr := callFault(direct.Client(), direct.URL, "cutjson")
	if !errors.Is(directErr, io.ErrUnexpectedEOF) {
		t.Fatalf("without llmtck: %v, want unexpected EOF", directErr)
	}
	for _, rt := range routes(t, h) {
		t.Run(rt.name, func(t *testing.T) {
			_, body, err := callFault(rt.client, rt.url, "cutjson")
			if !errors.Is(err, io.ErrUnexpectedEOF) || !bytes.Equal(body, directBody) {
				t.Errorf("the client got %q and %v, without llmtck %q and unexpected EOF", body, err, directBody)
			}
			if err := rt.rec.Close(); err != nil {
				t.Fatal(err)
			}
			c := loadStock(t, rt.path)
			if len(c.Interactions) != 1 || !strings.Contains(c.Interactions[0].Response.Headers.Get(headerTruncated), "upstream broke off") {
				t.Fatalf("recorded %d interactions; want the answer, marked broken off", len(c.Interactions))
			}
		})
	}
}
