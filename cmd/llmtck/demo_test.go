package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
)

// demoSources are the real recordings `make demo-corpus` checks, imported
// unchanged into fixtures/demo: a clean Anthropic thinking tool loop, a
// Gemini stream whose signature is echoed in URL-safe base64, a Chat
// Completions multi-agent session, and the Responses history edit the API
// rejected with HTTP 400.
var demoSources = map[string]string{
	"anthropic-thinking-tool-loop.yaml": "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml",
	"gemini-signature-echo.yaml":        "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml",
	"openai-chat-multi-agent.yaml":      "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml",
	"responses-edited-history-400.yaml": "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml",
}

// TestDemoFixtures keeps fixtures/demo equal to importing its sources;
// -update rewrites them.
func TestDemoFixtures(t *testing.T) {
	dir := filepath.Join("..", "..", "fixtures", "demo")
	for name, src := range demoSources {
		c, err := cassette.Load(filepath.Join(corpus.Dir(t), src))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := c.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if golden.FlagUpdate() {
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, err := os.ReadFile(p); err != nil || !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s is missing or stale; run: go test ./cmd/llmtck -run TestDemoFixtures -update", p)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != len(demoSources) {
		t.Errorf("fixtures/demo holds %d cassettes, want the %d of demoSources", len(files), len(demoSources))
	}
}

// TestDemo runs what `make demo-corpus` runs: the report names the rejected
// Responses request, and every other file is clean.
func TestDemo(t *testing.T) {
	code, out, errOut := runCLI(t, "check", filepath.Join("..", "..", "fixtures", "demo"))
	if code > 1 {
		t.Fatalf("demo check exited %d: %s", code, errOut)
	}
	if !strings.Contains(out, "4 files, 11 interactions") {
		t.Errorf("demo report:\n%s", out)
	}
}
