package cassette

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/reqmatch"
)

func chatCassette() *Cassette {
	return &Cassette{Interactions: []*Interaction{{
		Response: Response{Status: 200, Header: http.Header{}, Body: []byte(`{"type":"message_start"}`)}, // response-only: never matched
	}, {
		Request: Request{Method: "POST", URL: "https://api.openai.com/v1/chat/completions?key=REDACTED&b=2&a=1",
			Header: http.Header{"X-Tenant": {"t1"}},
			Body:   []byte(`{"model":"gpt","user":"u1","messages":[{"role":"user","content":"hi"}],"temperature":0.2}`)},
		Response: Response{Status: 200, Header: http.Header{}},
	}}}
}

// The matcher compares what replay compares: the JSON value with the
// wire's volatile fields and Ignore left out, the sorted query with
// credentials masked, and the headers it is told to.
func TestMatcherMatchesAsReplay(t *testing.T) {
	c := chatCassette()
	body := `{"messages":[{"content":"hi","role":"user"}],"model":"gpt","temperature":0.7,"user":"u2"}`
	live := "https://api.openai.com/v1/chat/completions?a=1&b=2&key=AIzaSyD-live-looking-key-000000000000"
	cases := []struct {
		on, ignore string
		header     string
		want       int
	}{
		{"", "", "", -1},                       // temperature differs
		{"", "temperature", "", 1},             // … unless ignored
		{"method,path,query", "", "", 1},       // the body is not compared
		{"method,path,body", "", "", -1},       // exact bytes
		{"path,header:x-tenant", "", "t1", 1},  // the header as recorded
		{"path,header:x-tenant", "", "t2", -1}, // … and not otherwise
		{"method,path,query,body-json", "temperature", "", 1},
	}
	for _, tc := range cases {
		m, err := ParseMatcher(tc.on, strings.Split(tc.ignore, ",")[:min(1, len(tc.ignore))])
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", live, strings.NewReader(body))
		if tc.header != "" {
			req.Header.Set("X-Tenant", tc.header)
		}
		if got := m.Find(c, RequestFrom(req)); got != tc.want {
			t.Errorf("%v: Find = %d, want %d", m, got, tc.want)
		}
		if got := m.Match(req, c.Interactions[1].Request); got != (tc.want == 1) {
			t.Errorf("%v: Match = %v", m, got)
		}
		if b, _ := io.ReadAll(req.Body); string(b) != body {
			t.Errorf("%v: the body was not put back: %q", m, b)
		}
	}
	if !slices.Equal(DefaultMatchOn, reqmatch.DefaultOn) {
		t.Errorf("DefaultMatchOn says %v, the matcher compares %v", DefaultMatchOn, reqmatch.DefaultOn)
	}
	if _, err := ParseMatcher("method,nose", nil); err == nil {
		t.Error("an unknown part was taken")
	}
}

// A miss prints the request that missed, its credentials masked, the
// nearest recorded request and each difference.
func TestMatcherExplainsAMiss(t *testing.T) {
	c := chatCassette()
	req := httptest.NewRequest("POST", "https://api.openai.com/v1/chat/completions?a=1&b=2&key=AIzaSyD-live-looking-key-000000000000",
		strings.NewReader(`{"model":"gpt","messages":[{"role":"user","content":"hello"}],"temperature":0.2}`))
	miss := DefaultMatcher.Explain(c, RequestFrom(req))
	got := miss.String()
	for _, want := range []string{
		"no recorded request matches POST /v1/chat/completions?a=1&b=2&key=REDACTED",
		"nearest recorded request: interaction 1 (POST /v1/chat/completions?a=1&b=2&key=REDACTED)",
		`messages[0].content: recorded "hi", got "hello"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the miss does not say %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "live-looking") || strings.Contains(got, "user") {
		t.Errorf("the miss shows a credential or a volatile field:\n%s", got)
	}
	if diffs, more := miss.Diffs(); miss.Nearest() != 1 || len(diffs) != 1 || more != 0 {
		t.Errorf("nearest %d, diffs %q and %d more", miss.Nearest(), diffs, more)
	}
	empty := DefaultMatcher.Explain(&Cassette{}, RequestFrom(req))
	if empty.Nearest() != -1 || !strings.Contains(empty.String(), "holds no request") {
		t.Errorf("an empty cassette: %d %s", empty.Nearest(), empty)
	}
}
