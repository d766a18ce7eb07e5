package proxy

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
)

// The recorder adds a JSON answer that holds no tool call to the linter
// undecoded, and the linter decodes it when the next request echoes it: a
// thinking block sent back altered is still found out (ANT-THINK-001), one
// sent back as it came is not, and the log counts no tool call for either
// answer.
func TestDeferredAnswerJudgesTheRequestThatEchoesIt(t *testing.T) {
	answer := []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":"Let me think.","signature":"EqQBCkYIBxgCKkA"},{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	json := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct{ name, thinking, lint string }{
		{"echoed", `Let me think.`, "lint=-"},
		{"altered", `Let me think again.`, "lint=ANT-THINK-001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := newProvider(t, false, &cassette.Response{Status: 200, Header: json, Body: answer}, &cassette.Response{Status: 200, Header: json, Body: answer})
			var log bytes.Buffer
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: filepath.Join(t.TempDir(), "c.yaml"), Judge: catalogue, Log: &log})
			u, _ := url.Parse(up.URL)
			front := httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			call := func(body string) (int, string) {
				resp, got := post(t, http.DefaultClient, front.URL+"/v1/messages", []byte(body), "Anthropic-Version", "2023-06-01")
				return resp.StatusCode, string(got)
			}
			const head = `{"model":"claude-x","max_tokens":2048,"thinking":{"type":"enabled","budget_tokens":1024},"messages":[{"role":"user","content":"Hi"}`
			if status, body := call(head + `]}`); status != http.StatusOK {
				t.Fatalf("first call: %d %s", status, body)
			}
			if status, body := call(head + `,{"role":"assistant","content":[{"type":"thinking","thinking":"` + tc.thinking + `","signature":"EqQBCkYIBxgCKkA"},{"type":"text","text":"Hello."}]},{"role":"user","content":"And?"}]}`); status != http.StatusOK {
				t.Fatalf("second call: %d %s", status, body)
			}
			rec.Close()
			lines := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], " tools=0 lint=- ") || !strings.Contains(lines[1], " tools=0 "+tc.lint+" ") {
				t.Errorf("log:\n%s\nwant two calls with tools=0, the second with %s", log.String(), tc.lint)
			}
		})
	}
}
