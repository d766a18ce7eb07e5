package proxy

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/sse"
)

// A real Anthropic stream goes through the base-URL recorder unchanged, and
// the cassette holds it verbatim with one arrival offset per event, the key
// redacted, loadable by stock go-vcr.
func TestRecordBaseURLThenReplay(t *testing.T) {
	src := loadCorpus(t, antStream)
	up := newProvider(t, false, responsesOf(src)...)
	path := filepath.Join(t.TempDir(), "ant.yaml")
	var logs syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Log: &logs})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()

	var got [][]byte
	for _, in := range src.Interactions {
		resp, body := post(t, front.Client(), front.URL+"/v1/messages", in.Request.Body, "X-Api-Key", "sk-ant-api03-Zq3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4qR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8oP0qR2sT4uV6wX8yZ0aB2cD4eF6gH8iA-AbCdEfAA", "Anthropic-Version", "2023-06-01")
		if resp.StatusCode != 200 || !bytes.Equal(body, in.Response.Body) {
			t.Fatalf("through the recorder: status %d, body equal %v", resp.StatusCode, bytes.Equal(body, in.Response.Body))
		}
		got = append(got, body)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	stock := loadStock(t, path)
	if len(stock.Interactions) != len(src.Interactions) {
		t.Fatalf("cassette has %d interactions, want %d", len(stock.Interactions), len(src.Interactions))
	}
	for i, in := range stock.Interactions {
		if in.Request.Body != string(src.Interactions[i].Request.Body) || in.Response.Body != string(got[i]) {
			t.Errorf("interaction %d: bodies not verbatim", i)
		}
		if k := in.Request.Headers.Get("X-Api-Key"); k != redact.Mask {
			t.Errorf("interaction %d: x-api-key recorded as %q", i, k)
		}
		if in.Request.Headers.Get("Anthropic-Version") != "2023-06-01" {
			t.Errorf("interaction %d: anthropic-version lost", i)
		}
		if in.Request.URL != up.URL+"/v1/messages" {
			t.Errorf("interaction %d: url %q", i, in.Request.URL)
		}
	}
	if !strings.Contains(logs.String(), "record POST "+u.Host+"/v1/messages 200 stream") {
		t.Errorf("log lacks the call line:\n%s", logs.String())
	}

	// Replay serves the same bytes, with no upstream at all.
	up.Close()
	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path, Log: &logs})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	for i, in := range src.Interactions {
		_, body := post(t, back.Client(), back.URL+"/v1/messages", in.Request.Body)
		if !bytes.Equal(body, got[i]) {
			t.Fatalf("replayed body %d differs from the recorded one", i)
		}
		if n := len(sse.Parse(body)); n == 0 {
			t.Fatalf("replayed body %d is not a stream", i)
		}
	}
	t.Log(logs.String())
}
