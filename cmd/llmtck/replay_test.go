package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
)

const thinkingCassette = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml"

// replay serves a real recording, stops on SIGTERM, and with --check
// answers a broken second turn as Anthropic would, using the real catalogue.
func TestReplayVerbWithCheck(t *testing.T) {
	file := filepath.Join(corpus.Dir(t), thinkingCassette)
	c, err := cassette.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "replay", "--cassette", file, "--check")
	for i, in := range c.Interactions {
		resp, err := http.Post(s.addr+"/v1/messages?beta=true", "application/json", bytes.NewReader(in.Request.Body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(body, in.Response.Body) {
			t.Fatalf("interaction %d: %d, body equal %v; stderr:\n%s", i, resp.StatusCode, bytes.Equal(body, in.Response.Body), s.stderr)
		}
	}
	// Turn 2 again, with the tool_result taken out of its last message.
	var req map[string]any
	json.Unmarshal(c.Interactions[1].Request.Body, &req)
	msgs := req["messages"].([]any)
	msgs[len(msgs)-1].(map[string]any)["content"] = []any{map[string]any{"type": "text", "text": "never mind"}}
	broken, _ := json.Marshal(req)
	resp, err := http.Post(s.addr+"/v1/messages?beta=true", "application/json", bytes.NewReader(broken))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01YGzqpRE16Vricda3Aqcejo. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"type":"invalid_request_error"`) || !strings.Contains(string(body), want) {
		t.Errorf("broken turn answered %d %s", resp.StatusCode, body)
	}
	if code := s.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit %d after SIGTERM; stderr:\n%s", code, s.stderr)
	}
	t.Logf("broken turn answered: %s\nstderr:\n%s", body, s.stderr)
}
