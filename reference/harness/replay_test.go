package harness_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/llmtck/llmtck/proxy"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// The loop runs through llmtck's own recorder and then, offline, against
// its replay server: the replayed run sends the same requests and ends with
// the same transcript.
func TestRecordThenReplay(t *testing.T) {
	upstream := newProvider(t,
		streamed(turn{thinking: "need the file", signature: "EqQBCkYIBxgCKkB/sig+==", calls: []call{{"toolu_1", "read", `{"path":"go.mod"}`}}, in: 50, out: 9}),
		streamed(turn{text: "module github.com/llmtck/llmtck", in: 80, out: 7}),
	)
	cassette := filepath.Join(t.TempDir(), "loop.yaml")
	run := func(mode proxy.Mode, up *url.URL) *harness.Run {
		t.Helper()
		rec, err := proxy.NewRecorder(proxy.Options{Mode: mode, Cassette: cassette})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(proxy.NewHandler(rec, up))
		defer srv.Close()
		h, err := harness.New(harness.Config{BaseURL: srv.URL, Wire: traffic.WireAnthropic, Model: "claude-test", Stream: true,
			Thinking: &traffic.Thinking{Type: "enabled", BudgetTokens: 1024}, MaxTokens: 2048})
		if err != nil {
			t.Fatal(err)
		}
		var ran []string
		r, err := h.Start(context.Background(), harness.Params{Messages: []traffic.Message{userText("which module?")},
			Tools: []engine.ToolDefinition{echoTool("read", &ran)}, Permissions: engine.Permissions{Allowlist: []engine.ToolPermission{{Tool: "read"}}}})
		if err != nil {
			t.Fatal(err)
		}
		checkEvents(t, collect(t, r.Events(), nil))
		if r.EndReason() != engine.EndFinal {
			t.Fatalf("%s: ended %s", mode, r.EndReason())
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		return r
	}
	up, _ := url.Parse(upstream.srv.URL)
	recorded := run(proxy.ModeRecord, up)
	replayed := run(proxy.ModeReplay, nil)
	if n := len(upstream.requests()); n != 2 {
		t.Errorf("upstream saw %d requests, want 2 (replay must not call it)", n)
	}
	a, _ := json.Marshal(recorded.Transcript().Messages())
	b, _ := json.Marshal(replayed.Transcript().Messages())
	if string(a) != string(b) {
		t.Errorf("replayed transcript differs:\n%s\n%s", a, b)
	}
	// The signed thinking was echoed in the second request, as recorded.
	sent := upstream.requests()[1].Messages[1].Blocks[0]
	if sent.Type != traffic.BlockThinking || string(sent.Signature) != `"EqQBCkYIBxgCKkB/sig+=="` {
		t.Errorf("echoed thinking %+v", sent)
	}
}
