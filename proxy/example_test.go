package proxy_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/proxy"
)

// The base-URL recorder sits between a harness and the provider: point the
// SDK's base URL at it, and every call goes upstream and into the cassette.
func ExampleNewRecorder() {
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":9,"output_tokens":3}}`)
	}))
	defer provider.Close()

	dir, _ := os.MkdirTemp("", "llmtck-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.yaml")
	rec, err := proxy.NewRecorder(proxy.Options{Mode: proxy.ModeRecord, Cassette: path, Judge: func() proxy.Judge { return lint.New(checks.All()) }})
	if err != nil {
		fmt.Println(err)
		return
	}
	upstream, _ := url.Parse(provider.URL)
	front := httptest.NewServer(proxy.NewHandler(rec, upstream))
	req, _ := http.NewRequest("POST", front.URL+"/v1/messages", strings.NewReader(`{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}`))
	req.Header.Set("X-Api-Key", "sk-ant-api03-not-a-real-key")
	req.Header.Set("Anthropic-Version", "2023-06-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	front.Close()
	rec.Close()

	c, err := cassette.Load(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := c.Interactions[0]
	fmt.Println(resp.StatusCode, len(c.Interactions), "interaction recorded")
	fmt.Println(in.Request.Method, strings.TrimPrefix(in.Request.URL, provider.URL))
	fmt.Println("x-api-key:", in.Request.Header.Get("X-Api-Key"))
	// Output:
	// 200 1 interaction recorded
	// POST /v1/messages
	// x-api-key: REDACTED
}

// With Check, replay answers a request the provider would refuse with the
// provider's own status and error body instead of the recording: here a
// recorded second turn that lost its tool_result, sent again.
func ExampleOptions_check() {
	recorded := "../fixtures/checks/ANT-TOOL-001/fail-tool-result-dropped.i1.yaml"
	c, err := cassette.Load(recorded)
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, err := proxy.NewRecorder(proxy.Options{Mode: proxy.ModeReplay, Cassette: recorded, Judge: func() proxy.Judge { return lint.New(checks.All()) }, Check: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rec.Close()
	srv := httptest.NewServer(proxy.NewHandler(rec, nil))
	defer srv.Close()
	for _, in := range c.Interactions {
		resp, err := http.Post(srv.URL+"/v1/messages", "application/json", bytes.NewReader(in.Request.Body))
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			fmt.Println(resp.StatusCode, string(body))
			continue
		}
		fmt.Println(resp.StatusCode, "replayed")
	}
	// Output:
	// 200 replayed
	// 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.2: all messages must have non-empty content except for the optional final assistant message"}}
}
