package cassette_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmtck/llmtck/cassette"
)

// A test loads a recording (of any format Load reads), finds the recorded
// answer to the request its code makes, explains a request that matches
// nothing, and writes the recording back as a go-vcr v4 cassette.
func Example() {
	dir, _ := os.MkdirTemp("", "cassette-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "chat.yaml")
	recorded := &cassette.Cassette{Interactions: []*cassette.Interaction{{
		Request: cassette.Request{
			Method: "POST", URL: "https://api.anthropic.com/v1/messages",
			Header: http.Header{"Content-Type": {"application/json"}},
			Body:   []byte(`{"model":"claude-sonnet-4-5","max_tokens":64,"metadata":{"user_id":"run-1"},"messages":[{"role":"user","content":"hi"}]}`),
		},
		Response: cassette.Response{Status: 200, StatusText: "200 OK", Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"type":"message"}`)},
	}}}
	if err := cassette.Save(path, recorded); err != nil {
		fmt.Println(err)
		return
	}

	c, err := cassette.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Format, len(c.Interactions), "interaction")

	// The same request, its keys in another order and another session's
	// user id (a volatile field): the default matcher finds it.
	req := httptest.NewRequest("POST", "https://api.anthropic.com/v1/messages", strings.NewReader(
		`{"messages":[{"content":"hi","role":"user"}],"max_tokens":64,"model":"claude-sonnet-4-5","metadata":{"user_id":"run-2"}}`))
	m := cassette.DefaultMatcher
	fmt.Println("match:", m.Match(req, c.Interactions[0].Request))
	fmt.Println("found at", m.Find(c, cassette.RequestFrom(req)))

	// Matching the exact bytes, it misses, and says why.
	exact, _ := cassette.ParseMatcher("method,path,body", nil)
	if i := exact.Find(c, cassette.RequestFrom(req)); i < 0 {
		req := httptest.NewRequest("POST", "https://api.anthropic.com/v1/messages", strings.NewReader(
			`{"model":"claude-sonnet-4-5","max_tokens":128,"metadata":{"user_id":"run-3"},"messages":[{"role":"user","content":"hi"}]}`))
		fmt.Println(exact.Explain(c, cassette.RequestFrom(req)))
	}

	if err := cassette.SaveV4(filepath.Join(dir, "chat-v4.yaml"), c); err != nil {
		fmt.Println(err)
	}
	// Output:
	// govcr-v1 1 interaction
	// match: true
	// found at 0
	// no recorded request matches POST /v1/messages; nearest recorded request: interaction 0 (POST /v1/messages)
	//   max_tokens: recorded 64, got 128
}
