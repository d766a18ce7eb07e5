package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/sse"
)

const eventGap = 50 * time.Millisecond

// timedStream is a real Anthropic stream cut to its first eight events.
func timedStream(t *testing.T) *cassette.Response {
	src := loadCorpus(t, antStream).Interactions[0].Response
	events := sse.Parse(src.Body)
	if len(events) < 8 {
		t.Fatalf("the fixture has only %d events", len(events))
	}
	src.Body = src.Body[:events[7].End]
	return &src
}

// checkGaps asserts that events arrived about eventGap apart: a proxy that
// buffered the stream would deliver them all at once at the end.
func checkGaps(t *testing.T, how string, times []time.Time) {
	t.Helper()
	var gaps []time.Duration
	for i := 1; i < len(times); i++ {
		gaps = append(gaps, times[i].Sub(times[i-1]))
	}
	sorted := append([]time.Duration(nil), gaps...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	median := sorted[len(sorted)/2]
	// One short gap can follow a late read on a busy machine; a buffering
	// proxy would make them all short.
	if sorted[1] < eventGap/2 || median < eventGap-5*time.Millisecond || median > eventGap+25*time.Millisecond {
		t.Errorf("%s: gaps between events %v (median %v), want about %v each", how, gaps, median, eventGap)
	}
}

func TestStreamsArriveAsTheyAreSent(t *testing.T) {
	stream := timedStream(t)
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()

	t.Run("record", func(t *testing.T) {
		up := newProvider(t, false, stream)
		up.gap = eventGap
		rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(dir, "record.yaml")})
		u, _ := url.Parse(up.URL)
		front := httptest.NewServer(NewHandler(rec, u))
		defer front.Close()
		resp, err := http.Post(front.URL+"/v1/messages", "application/json", bytes.NewReader([]byte(`{"stream":true}`)))
		if err != nil {
			t.Fatal(err)
		}
		times, body := eventTimes(t, resp.Body)
		resp.Body.Close()
		checkGaps(t, "base-URL recorder", times)
		if !bytes.Equal(body, stream.Body) {
			t.Fatal("body changed on the way")
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("proxy", func(t *testing.T) {
		up := newProvider(t, true, stream)
		up.gap = eventGap
		rec := mustRecorder(t, Options{Mode: ModeRecord, Dir: dir, Upstream: upstreamTo(up)})
		fwd := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca}))
		defer fwd.Close()
		client := viaProxy(fwd.URL, ca)
		resp, err := client.Post("https://api.anthropic.com/v1/messages", "application/json", bytes.NewReader([]byte(`{"stream":true}`)))
		if err != nil {
			t.Fatal(err)
		}
		times, body := eventTimes(t, resp.Body)
		resp.Body.Close()
		checkGaps(t, "forward proxy (TLS intercepted)", times)
		if !bytes.Equal(body, stream.Body) {
			t.Fatal("body changed on the way")
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("replay", func(t *testing.T) {
		for _, path := range []string{filepath.Join(dir, "record.yaml"), CassetteFor(dir, "api.anthropic.com")} {
			c, err := cassette.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			offs := c.Interactions[0].Response.EventOffsets
			if len(offs) != 9 { // eight events, then the end of the body
				t.Fatalf("%s: %d offsets recorded, want 8 events and the end", path, len(offs))
			}
			rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Timing: Timing{Scale: 1}})
			back := httptest.NewServer(NewHandler(rp, nil))
			resp, err := http.Post(back.URL+"/v1/messages", "application/json", bytes.NewReader([]byte(`{"stream":true}`)))
			if err != nil {
				t.Fatal(err)
			}
			times, body := eventTimes(t, resp.Body)
			resp.Body.Close()
			back.Close()
			checkGaps(t, "replay --timing recorded of "+filepath.Base(path), times)
			if !bytes.Equal(body, stream.Body) {
				t.Fatal("replayed body differs")
			}
		}
	})
}

// Recorded timing on a JSON body serves it (it once panicked: a JSON body
// has no event offsets), and a stream whose upstream held the connection
// open after its last event starts as soon as it did when recorded: the
// time after the last event is not replayed before the first.
func TestRecordedTimingEdges(t *testing.T) {
	dir := t.TempDir()
	jsonBody := `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`
	const tail = 600 * time.Millisecond
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("stream") == "" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(jsonBody))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for _, ev := range []string{"message_start", "ping", "message_stop"} {
			fmt.Fprintf(w, "event: %s\ndata: {\"type\":%q}\n\n", ev, ev)
			rc.Flush()
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(tail) // the connection stays open after the last event
	}))
	defer up.Close()
	path := filepath.Join(dir, "edges.yaml")
	u, _ := url.Parse(up.URL)
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	front := httptest.NewServer(NewHandler(rec, u))
	for _, q := range []string{"", "?stream=1"} {
		resp, err := http.Post(front.URL+"/v1/messages"+q, "application/json", strings.NewReader(`{"q":"`+q+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	front.Close()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Timing: Timing{Scale: 1}})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	resp, err := http.Post(back.URL+"/v1/messages", "application/json", strings.NewReader(`{"q":""}`))
	if err != nil {
		t.Fatalf("JSON under recorded timing: %v", err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != jsonBody {
		t.Fatalf("JSON under recorded timing: %q", got)
	}
	start := time.Now()
	resp, err = http.Post(back.URL+"/v1/messages?stream=1", "application/json", strings.NewReader(`{"q":"?stream=1"}`))
	if err != nil {
		t.Fatal(err)
	}
	times, _ := eventTimes(t, resp.Body)
	resp.Body.Close()
	if first := times[0].Sub(start); first > tail/2 {
		t.Errorf("the first event came %v after the request; recorded, it came at once (the %v after the last event was replayed first)", first, tail)
	}
}

// Streams that are not SSE arrive as sent too: Ollama's NDJSON, and
// Gemini's JSON array from :streamGenerateContent (application/json, known
// for a stream by its path). Only one JSON document is sent in one piece.
func TestLineStreamsArriveAsTheyAreSent(t *testing.T) {
	for _, tc := range []struct{ name, path, contentType string }{
		{"ndjson", "/api/chat", "application/x-ndjson"},
		{"gemini-json-array", "/v1beta/models/gemini-2.5-flash:streamGenerateContent", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", tc.contentType)
				for i := range 6 {
					fmt.Fprintf(w, "{\"n\":%d}\n", i)
					w.(http.Flusher).Flush()
					time.Sleep(eventGap)
				}
			}))
			defer up.Close()
			u, _ := url.Parse(up.URL)
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "lines.yaml"), Judge: catalogue, Log: io.Discard})
			front := httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			resp, err := http.Post(front.URL+tc.path, "application/json", strings.NewReader(`{"stream":true}`))
			if err != nil {
				t.Fatal(err)
			}
			var times []time.Time
			buf := make([]byte, 64)
			for {
				n, err := resp.Body.Read(buf)
				for range bytes.Count(buf[:n], []byte("\n")) {
					times = append(times, time.Now())
				}
				if err != nil {
					break
				}
			}
			resp.Body.Close()
			if len(times) != 6 {
				t.Fatalf("%d lines arrived, want 6", len(times))
			}
			checkGaps(t, tc.name, times)
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
