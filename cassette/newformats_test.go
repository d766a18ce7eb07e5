package cassette

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
)

// nock keeps a gzip-encoded response as a list of hex chunks: they are read
// back to the JSON the server sent, and the rest of the recording as is.
func TestNock(t *testing.T) {
	c := mustLoad(t, "testdata/nock-openai-tool-loop.json")
	if c.Format != FormatNock || len(c.Interactions) != 2 {
		t.Fatalf("read as %s with %d interactions, want nock with 2", c.Format, len(c.Interactions))
	}
	first := c.Interactions[0]
	if first.Request.URL != "https://api.openai.com/v1/chat/completions" || first.Request.Method != "POST" {
		t.Errorf("request %s %s", first.Request.Method, first.Request.URL)
	}
	if !json.Valid(first.Request.Body) || !strings.Contains(string(first.Request.Body), `"get_weather"`) {
		t.Errorf("request body %q", first.Request.Body)
	}
	if !strings.HasPrefix(string(first.Response.Body), `{"id":"chatcmpl-AbC123"`) {
		t.Errorf("hex chunks of gzip not decoded: %q", first.Response.Body)
	}
	if got := c.Interactions[1].Response.Body; !strings.Contains(string(got), "21°C") {
		t.Errorf("a JSON response kept as an object: %q", got)
	}
	if got := first.Response.Header.Get("X-Request-Id"); got != "req_1" {
		t.Errorf("rawHeaders: X-Request-Id = %q", got)
	}
	roundTrip(t, c)
}

// Polly.JS writes HAR with its own habits: hex chunks for an encoded body.
func TestPolly(t *testing.T) {
	c := mustLoad(t, "testdata/polly-anthropic.har")
	if c.Format != FormatHAR || len(c.Interactions) != 1 {
		t.Fatalf("read as %s with %d interactions, want har with 1", c.Format, len(c.Interactions))
	}
	in := c.Interactions[0]
	if !strings.HasPrefix(string(in.Response.Body), `{"id":"msg_01Polly"`) {
		t.Errorf("response body %q", in.Response.Body)
	}
	if !strings.Contains(string(in.Request.Body), `"claude-sonnet-4-5"`) || in.Request.URL != "https://api.anthropic.com/v1/messages" {
		t.Errorf("request %s %q", in.Request.URL, in.Request.Body)
	}
	roundTrip(t, c)
}

// rig's httpmock documents and langchain-aws's gzip-compressed parallel
// lists read as the calls they recorded, bodies decoded.
func TestHTTPMockAndVCRLists(t *testing.T) {
	var mock, lists int
	for _, path := range corpus.SetFiles(t, corpus.Wave2) {
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		switch c.Format {
		case FormatHTTPMock:
			mock++
			for i, in := range c.Interactions {
				if !strings.HasPrefix(in.Request.URL, "/") || in.Request.Method != "POST" || in.Response.Status == 0 {
					t.Errorf("%s #%d: %s %s -> %d", corpus.Name(t, path), i, in.Request.Method, in.Request.URL, in.Response.Status)
				}
			}
		case FormatVCRLists:
			lists++
			for i, in := range c.Interactions {
				if !json.Valid(in.Request.Body) || !strings.HasPrefix(in.Request.URL, "https://bedrock-runtime.") {
					t.Errorf("%s #%d: request %s %.40q", corpus.Name(t, path), i, in.Request.URL, in.Request.Body)
				}
			}
		}
	}
	if mock != 9 || lists != 3 {
		t.Errorf("read %d httpmock and %d vcrpy-lists recordings, want 9 and 3", mock, lists)
	}
}

// A JSON document that is no recording is said to be so, naming what it is.
func TestNotARecording(t *testing.T) {
	for _, doc := range []string{
		`{"name":"my-agent","version":"1.2.0","scripts":{"test":"go test"}}`,
		"{\n  \"model\": \"gpt-4o\",\n  \"temperature\": 0\n}\n",
		`[1, 2, 3]`,
		`{"a":1}` + "\n" + `{"b":2}`,
	} {
		_, err := Parse("config.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), "config.json:1: not a recording: a JSON ") {
			t.Errorf("%.30q: err = %v, want not a recording", doc, err)
		}
	}
}
