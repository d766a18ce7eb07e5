package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// Calls that go back and forth between URLs (another query, another path,
// a key in the query, another host) are each recorded under their own URL,
// its key masked, and replay tells them apart: the recorder remembers the
// latest URL's masking, and must not hand it to the next.
func TestRecordAlternatingURLs(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"path":%q,"alt":%q}`, r.URL.Path, r.URL.Query().Get("alt"))
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "urls.yaml")
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	targets := []string{
		"/v1beta/models/gemini-2.5-pro:generateContent?key=" + fakeGoogleKey,
		"/v1beta/models/gemini-2.5-pro:generateContent?alt=sse",
		"/v1beta/models/gemini-2.5-pro:generateContent?key=" + fakeGoogleKey,
		"/v1beta/models/gemini-2.5-flash:generateContent",
	}
	want := []string{
		up.URL + "/v1beta/models/gemini-2.5-pro:generateContent?key=" + redact.Mask,
		up.URL + "/v1beta/models/gemini-2.5-pro:generateContent?alt=sse",
		up.URL + "/v1beta/models/gemini-2.5-pro:generateContent?key=" + redact.Mask,
		up.URL + "/v1beta/models/gemini-2.5-flash:generateContent",
	}
	body := []byte(`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	for _, tgt := range targets {
		if resp, _ := post(t, front.Client(), front.URL+tgt, body); resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", tgt, resp.StatusCode)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	stock := loadStock(t, path)
	var got []string
	for _, in := range stock.Interactions {
		got = append(got, in.Request.URL)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("recorded URLs mismatch (-want +got):\n%s", d)
	}
	// The same path and query on another host, the recorder as a transport.
	other := httptest.NewServer(up.Config.Handler)
	defer other.Close()
	hosts := filepath.Join(t.TempDir(), "hosts.yaml")
	rt := mustRecorder(t, Options{Mode: ModeRecord, Cassette: hosts})
	for _, base := range []string{up.URL, other.URL, up.URL} {
		if resp, _ := post(t, &http.Client{Transport: rt}, base+targets[3], body); resp.StatusCode != 200 {
			t.Fatalf("%s: status %d", base, resp.StatusCode)
		}
	}
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, in := range loadStock(t, hosts).Interactions {
		got = append(got, in.Request.URL)
	}
	if d := cmp.Diff([]string{up.URL + targets[3], other.URL + targets[3], up.URL + targets[3]}, got); d != "" {
		t.Fatalf("recorded URLs on two hosts mismatch (-want +got):\n%s", d)
	}

	rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: path})
	back := httptest.NewServer(NewHandler(rp, nil))
	defer back.Close()
	for _, c := range []struct{ target, answer string }{
		{targets[3], `{"path":"/v1beta/models/gemini-2.5-flash:generateContent","alt":""}`},
		{targets[1], `{"path":"/v1beta/models/gemini-2.5-pro:generateContent","alt":"sse"}`},
		{targets[3], `{"path":"/v1beta/models/gemini-2.5-flash:generateContent","alt":""}`},
		{targets[1], `{"path":"/v1beta/models/gemini-2.5-pro:generateContent","alt":"sse"}`},
	} {
		if _, answer := post(t, back.Client(), back.URL+c.target, body); string(answer) != c.answer {
			t.Errorf("replay of %s answered %s, want %s", c.target, answer, c.answer)
		}
	}
}
