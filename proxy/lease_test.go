package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// smallSpill makes bodies spill past 64 KB, kept by a keeper past 32 KB,
// for the length of a test.
func smallSpill(t testing.TB) {
	oldSpill, oldAside := spillAt, keepAside
	spillAt, keepAside = 64<<10, 32<<10
	t.Cleanup(func() { spillAt, keepAside = oldSpill, oldAside })
}

// events is an event stream of about n bytes.
func events(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"index\":%d,\"delta\":{\"text\":\"é ☃ \\\"q\\\"\"}}\n\n", i)
	}
	return b.Bytes()
}

// gatedStream is an upstream that sends first, then waits for gate before
// it sends rest, on /v1/messages; /v1/json answers a small JSON body.
func gatedStream(first, rest []byte, gate <-chan struct{}) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/v1/json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":"msg_2","type":"message","content":[]}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(first)
		http.NewResponseController(w).Flush()
		<-gate
		w.Write(rest)
	}))
}

// recordInFront starts a recorder writing to path in front of up.
func recordInFront(t *testing.T, path string, up *httptest.Server) (*Recorder, *httptest.Server) {
	t.Helper()
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	t.Cleanup(front.Close)
	return rec, front
}

// startStream asks front for a stream; the body the client reads (nil if
// the call failed) comes on the channel once it ends.
func startStream(front *httptest.Server) <-chan []byte {
	got := make(chan []byte, 1)
	go func() {
		resp, err := front.Client().Post(front.URL+"/v1/messages", "application/json", strings.NewReader(`{"stream":true}`))
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- b
	}()
	return got
}

// marked reports whether the cassette at path holds cassette.Busy: a
// stream is being written in place.
func marked(path string) bool {
	raw, _ := os.ReadFile(path)
	return bytes.Contains(raw, []byte(cassette.Busy))
}

// assertCanonical holds the cassette at path to the bytes the cassette
// encoder writes for what it holds: no mark, nothing in place left over.
func assertCanonical(t *testing.T, path string) *cassette.Cassette {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cassette.Parse(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := c.Encode(&want); err != nil {
		t.Fatal(err)
	}
	if c.Torn != 0 || !bytes.Equal(raw, want.Bytes()) {
		t.Fatalf("the cassette is not as the encoder writes it (torn %d):\n%s", c.Torn, clip(raw))
	}
	return c
}

// An event stream that spills is written into the cassette as it arrives,
// behind cassette.Busy, and the cassette ends up byte for byte as the
// encoder writes it in memory, however the body ends: in a blank line (the
// indicator the lease guessed), in no line break (one as wide, written
// over it), in one line break (another width: the stream is moved out and
// written as any spilled body), or with a line that starts with a space.
func TestStreamWrittenInPlace(t *testing.T) {
	smallSpill(t)
	stream := events(200 << 10)
	for name, body := range map[string][]byte{
		"blank line":     stream,
		"no line break":  bytes.TrimRight(stream, "\n"),
		"one line break": stream[:len(stream)-1],
		"leading space":  append([]byte("  :keep-alive\n"), stream...),
		"more breaks":    append(bytes.Clone(stream), "\n\n\n"...),
	} {
		t.Run(name, func(t *testing.T) {
			gate := make(chan struct{})
			half := len(body) / 2
			up := gatedStream(body[:half], body[half:], gate)
			defer up.Close()
			path := filepath.Join(t.TempDir(), "stream.yaml")
			rec, front := recordInFront(t, path, up)
			got := startStream(front)
			waitFor(t, func() bool { return marked(path) })
			if c := loadStock(t, path); len(c.Interactions) != 0 {
				t.Errorf("go-vcr reads %d interactions while the stream is written in place, want 0", len(c.Interactions))
			}
			close(gate)
			if b := <-got; !bytes.Equal(b, body) {
				t.Fatalf("the client got %d bytes, the upstream sent %d", len(b), len(body))
			}
			// The stream is on disk before the client sees its end.
			if c := loadStock(t, path); len(c.Interactions) != 1 || c.Interactions[0].Response.Body != string(body) {
				t.Fatal("the stream is not in the cassette once the client has it whole")
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			c := assertCanonical(t, path)
			if len(c.Interactions) != 1 || !bytes.Equal(c.Interactions[0].Response.Body, body) {
				t.Fatal("the stream did not round-trip")
			}
		})
	}
}

// A call that finishes while a stream is written in place takes the end of
// the cassette back: the stream's lines move to a temporary file, the call
// is written (go-vcr loads it at once), and the stream is written after it
// when it ends. Closing puts them in the order their requests started.
func TestStreamInPlaceMakesWayForOtherCalls(t *testing.T) {
	smallSpill(t)
	body := events(300 << 10)
	gate := make(chan struct{})
	up := gatedStream(body[:200<<10], body[200<<10:], gate)
	defer up.Close()
	path := filepath.Join(t.TempDir(), "both.yaml")
	rec, front := recordInFront(t, path, up)
	got := startStream(front)
	waitFor(t, func() bool { return marked(path) })
	post(t, front.Client(), front.URL+"/v1/json", []byte(`{"n":2}`))
	if marked(path) {
		t.Error("the stream still holds the end of the cassette after another call was written")
	}
	if c := loadStock(t, path); len(c.Interactions) != 1 || c.Interactions[0].Request.Body != `{"n":2}` {
		t.Fatalf("go-vcr does not read the call that finished during the stream")
	}
	close(gate)
	if b := <-got; !bytes.Equal(b, body) {
		t.Fatalf("the client got %d bytes, the upstream sent %d", len(b), len(body))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	c := assertCanonical(t, path)
	if len(c.Interactions) != 2 || !bytes.Equal(c.Interactions[0].Response.Body, body) || string(c.Interactions[1].Request.Body) != `{"n":2}` {
		t.Fatal("the stream and the call are not both in the cassette, in request order")
	}
}

// A stream written in place that turns out to hold a credential is not
// recorded, and nothing of it stays in the cassette; neither does one still
// under way when the recorder closes.
func TestStreamInPlaceLeftOut(t *testing.T) {
	smallSpill(t)
	for _, tc := range []struct {
		name string
		rest []byte
	}{
		{"credential", append([]byte("data: {\"key\":\""+fakeOpenAIKey+"\"}\n\n"), events(10<<10)...)},
		{"closed mid-stream", events(10 << 10)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := make(chan struct{})
			up := gatedStream(events(200<<10), tc.rest, gate)
			defer up.Close()
			path := filepath.Join(t.TempDir(), "out.yaml")
			rec, front := recordInFront(t, path, up)
			post(t, front.Client(), front.URL+"/v1/json", []byte(`{"n":1}`))
			done := startStream(front)
			waitFor(t, func() bool { return marked(path) })
			if tc.name == "closed mid-stream" {
				old := closeWait
				closeWait = 100 * time.Millisecond
				defer func() { closeWait = old }()
				if err := rec.Close(); err == nil || !strings.Contains(err.Error(), "in flight") {
					t.Errorf("Close under a stream: %v, want calls in flight", err)
				}
				close(gate)
				<-done
			} else {
				close(gate)
				<-done
				if err := rec.Close(); err == nil || !strings.Contains(err.Error(), "credential") {
					t.Errorf("Close after a stream with a credential: %v, want it reported", err)
				}
			}
			c := assertCanonical(t, path)
			if len(c.Interactions) != 1 || string(c.Interactions[0].Request.Body) != `{"n":1}` {
				t.Fatalf("%d interactions, want only the call before the stream", len(c.Interactions))
			}
		})
	}
}

// Two streams that spill at once: the first writes in place, the second
// into a temporary file, and whichever ends first, both end up in the
// cassette as the encoder writes them.
func TestTwoStreamsInPlace(t *testing.T) {
	smallSpill(t)
	for _, firstEnds := range []bool{true, false} {
		t.Run(fmt.Sprintf("first-ends-first=%v", firstEnds), func(t *testing.T) {
			bodies := [][]byte{events(200 << 10), append([]byte("  "), events(300<<10)...)}
			gates := []chan struct{}{make(chan struct{}), make(chan struct{})}
			ups := []*httptest.Server{}
			for i, b := range bodies {
				up := gatedStream(b[:len(b)/2], b[len(b)/2:], gates[i])
				defer up.Close()
				ups = append(ups, up)
			}
			path := filepath.Join(t.TempDir(), "two.yaml")
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
			var got []<-chan []byte
			for _, up := range ups {
				u, _ := url.Parse(up.URL)
				front := httptest.NewServer(NewHandler(rec, u))
				defer front.Close()
				got = append(got, startStream(front))
				if len(got) == 1 {
					waitFor(t, func() bool { return marked(path) })
				}
			}
			order := []int{0, 1}
			if !firstEnds {
				order = []int{1, 0}
			}
			for _, i := range order {
				close(gates[i])
				if b := <-got[i]; !bytes.Equal(b, bodies[i]) {
					t.Fatalf("stream %d: the client got %d bytes, the upstream sent %d", i, len(b), len(bodies[i]))
				}
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			c := assertCanonical(t, path)
			if len(c.Interactions) != 2 {
				t.Fatalf("%d interactions, want 2", len(c.Interactions))
			}
			for i, in := range c.Interactions {
				if !bytes.Equal(in.Response.Body, bodies[i]) {
					t.Errorf("stream %d did not round-trip", i)
				}
			}
		})
	}
}
