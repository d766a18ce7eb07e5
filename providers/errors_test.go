package providers_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers"
)

// Every codec says the same thing about the same bad body, in one sentence
// that names what was expected, and Decode names the side once.
func TestBadBodiesGetOneText(t *testing.T) {
	requests := []struct{ body, want string }{
		{" \n\t", "request body: empty"},
		{"hello", "request body: invalid JSON at byte 1: invalid character 'h' looking for beginning of value"},
		{`{"model":"x","messages":[`, "request body: invalid JSON at byte 25: unexpected end of JSON input"},
		{"[1,2]", "request body: expected a JSON object, found an array"},
		{`"text"`, "request body: expected a JSON object, found a string"},
	}
	responses := []struct{ body, want string }{
		{"", "response body: empty"},
		{"\x00\x01\xff", "response body: binary data (3 bytes), neither JSON nor an event stream"},
		{"hello", `response body: neither JSON nor an event stream: starts with "hello"`},
		{`{"id":"x","content":[`, "response body: invalid JSON at byte 21: unexpected end of JSON input"},
	}
	for _, w := range providers.Wires() {
		for _, c := range requests {
			ex := providers.Decode(0, providers.Call{Method: "POST", URL: "https://example.test/", RequestBody: []byte(c.body), Wire: w})
			if ex.RequestErr != c.want {
				t.Errorf("%s request %q:\n got  %q\n want %q", w, c.body, ex.RequestErr, c.want)
			}
		}
		for _, c := range responses {
			ex := providers.Decode(0, providers.Call{Method: "POST", URL: "https://example.test/", Status: 200, ResponseBody: []byte(c.body), Wire: w})
			if ex.ResponseErr != c.want {
				t.Errorf("%s response %q:\n got  %q\n want %q", w, c.body, ex.ResponseErr, c.want)
			}
		}
	}
}

// No error text says its side twice, whatever the body.
func FuzzDecodeNamesTheSideOnce(f *testing.F) {
	for _, s := range []string{"", "{", "[]", "hello", "data: {}\n\n", "{\"a\":1}\n{\"b\":2}\n", "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, w := range providers.Wires() {
			ex := providers.Decode(0, providers.Call{Method: "POST", URL: "https://example.test/", Status: 200, RequestBody: b, ResponseBody: b, Wire: w})
			for _, e := range []string{ex.RequestErr, ex.ResponseErr} {
				if strings.Count(e, "request body") > 1 || strings.Count(e, "response body") > 1 {
					t.Errorf("%s: %q", w, e)
				}
			}
		}
	})
}
