package redact

import (
	"net/http"
	"strings"
	"testing"
)

// Scrub masks every key shape in place of the key, at the key's length, so
// JSON stays valid and offsets stay right; a second pass finds nothing.
func TestScrub(t *testing.T) {
	for name, key := range liveKeys {
		in := []byte(`{"text":"line\n` + key + ` and again ` + key + `"}`)
		out, n := Scrub(in)
		if n != 2 || len(out) != len(in) || strings.Contains(string(out), key) {
			t.Errorf("%s: %d masked, %d→%d bytes: %s", name, n, len(in), len(out), out)
		}
		if _, again := Scrub(out); again != 0 {
			t.Errorf("%s: a second pass masked %d more", name, again)
		}
	}
	prose := []byte(`{"text":"we use sk-learn for the pipeline, Version 1.4"}`)
	if out, n := Scrub(prose); n != 0 || &out[0] != &prose[0] {
		t.Errorf("prose was changed: %s", out)
	}
}

// call is the part of a recorded interaction Policy.Call scrubs.
type call struct {
	Request  recorded
	Response recorded
}

type recorded struct {
	Method, URL string
	Status      int
	Header      http.Header
	Body        []byte
}

func scrubCalls(p Policy, calls []*call) int {
	n := 0
	for _, c := range calls {
		n += p.Call(&c.Request.URL, c.Request.Header, &c.Request.Body, c.Response.Header, &c.Response.Body)
	}
	return n
}

// A recorded call is scrubbed as the recorder would have written it, except
// that placeholders another tool left are kept: its tests match on them.
func TestPolicyCall(t *testing.T) {
	calls := []*call{{
		Request: recorded{
			Method: "POST", URL: "https://x/v1/models/m:generateContent?alt=sse&key=" + googleKey,
			Header: http.Header{"Authorization": {"Bearer " + openaiKey}, "X-Api-Key": {"test-api-key"}, "X-Debug": {"copy " + anthropicKey}},
			Body:   []byte(`{"prompt":"` + jwt + `"}`),
		},
		Response: recorded{Status: 200, Header: http.Header{"Set-Cookie": {"__cf_bm=abc"}}, Body: []byte(`{"ok":true}`)},
	}, {
		Request:  recorded{Method: "GET", URL: "https://serpapi.com/search?api_key=test-api-key&q=go", Header: http.Header{}},
		Response: recorded{Status: 200, Header: http.Header{}},
	}}
	if n := scrubCalls(Default(), calls); n != 5 {
		t.Errorf("%d values masked, want 5 (key=, authorization, x-debug, body, set-cookie)", n)
	}
	in := calls[0]
	if !strings.HasSuffix(in.Request.URL, "&key="+Mask) || in.Request.Header.Get("Authorization") != Mask || in.Request.Header.Get("X-Api-Key") != "test-api-key" {
		t.Errorf("not scrubbed as the recorder would: %s %v", in.Request.URL, in.Request.Header)
	}
	if l := ScanAll("", []byte(in.Request.Header.Get("X-Debug")+string(in.Request.Body))); l != nil {
		t.Errorf("left: %v", l)
	}
	if got := calls[1].Request.URL; got != "https://serpapi.com/search?api_key=test-api-key&q=go" {
		t.Errorf("a placeholder was masked: %s", got)
	}
	if n := scrubCalls(Default(), calls); n != 0 {
		t.Errorf("a second pass masked %d", n)
	}
}
