package cassette

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/sse"
)

// TestCorpus loads every real recording, checks the detected format and the
// interaction count against MANIFEST.tsv, and round-trips it through our
// writer and stock go-vcr v2.1.0.
func TestCorpus(t *testing.T) {
	for _, set := range []string{corpus.Dev, corpus.Wave2} {
		t.Run(set, func(t *testing.T) { testCorpusSet(t, set) })
	}
}

func testCorpusSet(t *testing.T, set string) {
	man := setManifest(t, set)
	files := corpus.SetFiles(t, set)
	if len(files) != len(man) {
		t.Errorf("corpus has %d files, MANIFEST.tsv lists %d", len(files), len(man))
	}
	for _, path := range files {
		name := corpus.Name(t, path)
		t.Run(name, func(t *testing.T) {
			want, ok := man[name]
			if !ok {
				t.Fatalf("%s is not in MANIFEST.tsv", name)
			}
			c, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Path != path {
				t.Errorf("Path = %q, want %q", c.Path, path)
			}
			if f := manifestFormat(want.format); c.Format != f {
				t.Errorf("detected %s, manifest says %q", c.Format, want.format)
			}
			// The manifest counts a response-only fixture as one interaction;
			// one that holds several streams back to back reads as one each.
			if got := len(c.Interactions); got != want.interactions && (c.Format != FormatJSONL || got < want.interactions) {
				t.Errorf("%d interactions, manifest says %d", got, want.interactions)
			}
			for i, in := range c.Interactions {
				if in.Response.Status < 100 || in.Response.Status > 599 {
					t.Errorf("interaction %d: status %d", i, in.Response.Status)
				}
				if !strings.HasPrefix(in.Response.StatusText, strings.Fields(in.Response.StatusText)[0]) {
					t.Errorf("interaction %d: status text %q", i, in.Response.StatusText)
				}
				if len(in.Response.Body) == 0 {
					t.Errorf("interaction %d: empty response body", i)
				}
				// JSONL fixtures have no request; httpmock keeps the path only.
				pathOnly := c.Format == FormatHTTPMock && strings.HasPrefix(in.Request.URL, "/")
				if c.Format != FormatJSONL && (in.Request.Method == "" || !strings.HasPrefix(in.Request.URL, "https://") && !strings.HasPrefix(in.Request.URL, "http://localhost") && !pathOnly) {
					t.Errorf("interaction %d: request %q %q", i, in.Request.Method, in.Request.URL)
				}
			}
			roundTrip(t, c)
		})
	}
}

func corpusFile(t *testing.T, suffix string) string {
	t.Helper()
	for _, f := range corpus.Files(t) {
		if strings.HasSuffix(f, suffix) {
			return f
		}
	}
	t.Fatalf("no corpus file ending in %s", suffix)
	return ""
}

func mustLoad(t *testing.T, path string) *Cassette {
	t.Helper()
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// openllmetry stores gzip bodies as !!binary with Content-Encoding: gzip.
func TestCorpusGzipBinaryBodies(t *testing.T) {
	c := mustLoad(t, corpusFile(t, "test_vision__test_vision.yaml"))
	in := c.Interactions[0]
	if got := in.Response.Header.Get("Content-Encoding"); got != "gzip" {
		t.Errorf("Content-Encoding = %q, want the recorded gzip kept", got)
	}
	if !bytes.HasPrefix(in.Response.Body, []byte(`{"id": "chatcmpl-8wq4EsSXTQC0JbGzob3SBHg6pS7Tt", "object": "chat.completion"`)) {
		t.Errorf("response body not gunzipped: %q", in.Response.Body)
	}
	if !bytes.Contains(c.Interactions[2].Response.Body, []byte("invalid_image_url")) {
		t.Errorf("plain body of interaction 2: %q", c.Interactions[2].Response.Body)
	}
	out := encoded(t, c)
	if bytes.Contains(out, []byte("Content-Encoding")) {
		t.Error("Encode kept a Content-Encoding: gzip header over a decoded body")
	}
	g := loadWithGoVCR(t, out)
	if body := g.Interactions[0].Response.Body; body != string(in.Response.Body) {
		t.Errorf("go-vcr body %q", body)
	}
}

// pydantic-ai's parsed_body becomes compact JSON in document key order.
func TestCorpusParsedBody(t *testing.T) {
	c := mustLoad(t, corpusFile(t, "test_anthropic_tool_with_thinking.yaml"))
	const prefix = `{"max_tokens":4096,"messages":[{"content":[{"text":"What is the largest city in the user country?","type":"text"}],"role":"user"}],"model":"claude-sonnet-4-0","stream":false,"thinking":{"budget_tokens":3000,"type":"enabled"},"tool_choice":{"type":"auto"},"tools":[{"description":"","input_schema":{"additionalProperties":false,"properties":{},"type":"object"},"name":"get_user_country"}]}`
	if got := string(c.Interactions[0].Request.Body); got != prefix {
		t.Errorf("request body\n got %s\nwant %s", got, prefix)
	}
	resp := string(c.Interactions[0].Response.Body)
	if !strings.HasPrefix(resp, `{"content":[{"signature":"EqEECkYICxgCKkAo3UA4WwDbB8ihhpykVCsPx6iMzwNTNP8dePIgYjNpu2EWrt5JbApWWONEZaf5w46939Vu1SDU1//mDyr2/Vw+Egz`) {
		t.Errorf("response body starts %.120s", resp)
	}
	// The thinking text was a |- block with a blank line in it.
	if !strings.Contains(resp, `its largest city.\n\nLet me call the get_user_country function first.","type":"thinking"}`) {
		t.Errorf("thinking text not kept: %.400s", resp)
	}
}

// Streaming bodies stay raw SSE, in every format.
func TestCorpusStreamsStayVerbatim(t *testing.T) {
	for _, tc := range []struct {
		file   string
		events int
		first  string
	}{
		{"test_anthropic_model_thinking_part_stream.yaml", 0, "message_start"},
		{"test_anthropic_thinking_streaming_legacy.yaml", 0, "message_start"},
		{"TestExec_Anthropic_ToolCall.yaml", 0, "message_start"},
		{"TestClient_CreateMessageStream.httprr", 0, "message_start"},
		{"anthropic-clear-thinking.1.chunks.txt", 0, "message_start"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c := mustLoad(t, corpusFile(t, tc.file))
			body := c.Interactions[0].Response.Body
			evs := sse.Parse(body)
			if len(evs) < 3 {
				t.Fatalf("%d SSE events in %q", len(evs), body)
			}
			if evs[0].Event != tc.first {
				t.Errorf("first event %q, want %q", evs[0].Event, tc.first)
			}
			if last := evs[len(evs)-1]; last.Unterminated {
				t.Errorf("last event unterminated: %q", last.Data)
			}
		})
	}
}

// The JSONL framing puts `event: <type>` before each line that has one.
func TestCorpusJSONLFraming(t *testing.T) {
	path := corpusFile(t, "openai-error.1.chunks.txt")
	c := mustLoad(t, path)
	body := string(c.Interactions[0].Response.Body)
	if !strings.HasPrefix(body, "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,") {
		t.Errorf("body starts %.100q", body)
	}
	if !strings.Contains(body, "\n\nevent: error\ndata: {\"type\":\"error\",") || !strings.HasSuffix(body, "}\n\n") {
		t.Errorf("error event framing wrong: %.200q", body[len(body)-200:])
	}
	c = mustLoad(t, corpusFile(t, "google-reasoning-gemini3.chunks.txt"))
	body = string(c.Interactions[0].Response.Body)
	if !strings.HasPrefix(body, "data: {\"candidates\":") || strings.Contains(body, "event:") {
		t.Errorf("Gemini chunks have no type, so no event lines: %.100q", body)
	}
	if c.Interactions[0].Request.Method != "" || c.Interactions[0].Request.URL != "" {
		t.Error("JSONL has no request side")
	}
	if got := c.Interactions[0].Response.Header.Get("Content-Type"); got != "text/event-stream" {
		t.Errorf("Content-Type %q", got)
	}
	_ = filepath.Base(path)
}

// httprr traces keep the absolute request URL as written and the headers
// that came after a bare-LF line.
func TestCorpusHTTPRR(t *testing.T) {
	c := mustLoad(t, corpusFile(t, "TestGoogleAIErrorHandling.httprr"))
	in := c.Interactions[0]
	if in.Request.URL != "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?%24alt=json%3Benum-encoding%3Dint" {
		t.Errorf("URL %q", in.Request.URL)
	}
	if in.Response.Status != 403 || in.Response.StatusText != "403 Forbidden" {
		t.Errorf("status %d %q", in.Response.Status, in.Response.StatusText)
	}
	if got := in.Response.Header.Values("Vary"); len(got) != 3 {
		t.Errorf("Vary = %q, want 3 values", got)
	}
	c = mustLoad(t, corpusFile(t, "TestClient_CreateMessageStream.httprr"))
	if got := c.Interactions[0].Request.Header.Get("User-Agent"); got != "langchaingo-httprr" {
		t.Errorf("User-Agent %q", got)
	}
	if got := c.Interactions[0].Request.Header.Get("X-Api-Key"); got != "test-api-key" {
		t.Errorf("X-Api-Key %q", got)
	}
}

// The fast reader and yaml.v3 agree on generated cassettes of every size,
// mixed with awkward bodies, and the fast reader declines every corpus file
// as written (none is in llmtck's layout), so those take the general way.
func TestFastMatchesYAML(t *testing.T) {
	for _, n := range []int{0, 1, 7, 40} {
		c := genCassette(n, 3000)
		for i, in := range c.Interactions {
			s := awkward[i*7%len(awkward)]
			in.Response.Body = []byte(s)
			in.Request.Header.Set("X-Awkward", s)
			if i%3 == 0 {
				in.Response.EventOffsets = nil
			}
		}
		roundTrip(t, c)
	}
	for _, path := range corpus.Files(t) {
		if _, _, ok := parseFast(readFile(t, path)); ok {
			t.Errorf("%s: the fast reader accepted a file llmtck did not write", path)
		}
	}
}
