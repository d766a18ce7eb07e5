package gemini_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/sse"
)

// streamServer serves body as Gemini serves a stream, one flushed write
// per event; with cut set it stops in the middle of the last event and
// drops the connection, as a network failure does.
func streamServer(t *testing.T, body []byte, cut bool) *httptest.Server {
	t.Helper()
	events := sse.Parse(body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") || r.URL.Query().Get("alt") != "sse" {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for i, e := range events {
			chunk := body[e.Offset:e.End]
			if cut && i == len(events)-1 {
				w.Write(chunk[:len(chunk)/2])
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler) // drop the connection mid-event
			}
			w.Write(chunk)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestStreamOverHTTP reads a real recorded stream through a loopback HTTP
// server, whole and cut off, and decodes what the client received.
func TestStreamOverHTTP(t *testing.T) {
	calls := corpusCalls(t)
	in := find(t, calls, "Google_Gemini3ProPreview", 0)
	want := mustResponse(t, in)

	get := func(srv *httptest.Server) ([]byte, error) {
		resp, err := http.Post(srv.URL+"/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
			"application/json", strings.NewReader(string(in.Request.Body)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}

	body, err := get(streamServer(t, in.Response.Body, false))
	if err != nil {
		t.Fatal(err)
	}
	got, err := codec.DecodeResponse(200, nil, body)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stream read over HTTP decodes differently (-recorded +received):\n%s", d)
	}

	body, err = get(streamServer(t, in.Response.Body, true))
	if err == nil {
		t.Fatal("expected the cut connection to surface as a read error")
	}
	got, err = codec.DecodeResponse(200, nil, body)
	if err != nil {
		t.Fatal(err)
	}
	s := got.Stream
	if s.Complete || !s.Truncated || len(s.Issues) != 1 || s.Issues[0].Check != "GEM-STREAM-001" || s.Issues[0].Event != 1 {
		t.Errorf("cut stream facts: %+v", s)
	}
	if got.Output[0].Blocks[0].Text != "AI Capabilities Inquiry" || len(got.Output[0].Blocks) != 1 {
		t.Errorf("what arrived before the cut: %+v", got.Output)
	}
}
