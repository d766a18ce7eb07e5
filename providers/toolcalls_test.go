package providers_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

func toolCallsIn(resp *traffic.Response) int {
	n := 0
	if resp == nil {
		return 0
	}
	for _, m := range resp.Output {
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockToolCall {
				n++
			}
		}
	}
	return n
}

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

// NoToolCalls must never claim "none" for a response that decodes to a
// tool call on any wire, and must spare the real answers that hold none.
func TestNoToolCallsOnTheCorpus(t *testing.T) {
	spared, withTools := 0, 0
	for _, set := range []string{corpus.Dev, corpus.Wave2} {
		for _, path := range corpus.SetFiles(t, set) {
			c, err := cassette.Load(path)
			if err != nil {
				continue // other formats' quirks are the corpus tests' business
			}
			for i, ex := range providers.DecodeCassette(c, "") {
				in := c.Interactions[i]
				none := providers.NoToolCalls(in.Response.Status, in.Response.Header, in.Response.Body)
				n := toolCallsIn(ex.Response)
				if none && n > 0 {
					t.Errorf("%s interaction %d: NoToolCalls says none, the %s decoder finds %d", corpus.Name(t, path), i, ex.Wire, n)
				}
				if none {
					spared++
				}
				if n > 0 {
					withTools++
				}
			}
		}
	}
	t.Logf("%d answers spared a decode, %d with tool calls", spared, withTools)
	// The test proves nothing unless both kinds are there.
	if spared < 20 || withTools < 10 {
		t.Fatalf("the corpus gave %d answers spared a decode and %d with tool calls; expected at least 20 and 10", spared, withTools)
	}
}

func TestNoToolCalls(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header http.Header
		body   string
		want   bool
	}{
		{"text answer", 200, jsonHeader, `{"content":[{"type":"text","text":"hi"}]}`, true},
		{"with charset", 200, http.Header{"Content-Type": {"application/json; charset=UTF-8"}}, ` {"candidates":[]}`, true},
		{"anthropic tool", 200, jsonHeader, `{"content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}`, false},
		{"chat tool", 200, jsonHeader, `{"choices":[{"message":{"tool_calls":[]}}]}`, false},
		{"responses call", 200, jsonHeader, `{"output":[{"type":"function_call"}]}`, false},
		{"gemini call", 200, jsonHeader, `{"candidates":[{"content":{"parts":[{"functionCall":{}}]}}]}`, false},
		{"bedrock tool", 200, jsonHeader, `{"output":{"message":{"content":[{"toolUse":{}}]}}}`, false},
		{"the words' parts in prose", 200, jsonHeader, `{"content":[{"type":"text","text":"Call a tool to Use it: the function_ of input_tokens"}]}`, true},
		{"a word after a part", 200, jsonHeader, `{"content":[{"type":"text","text":"Use a toolUse"}]}`, false},
		{"a word after other keys with a '_'", 200, jsonHeader, `{"stop_reason":"x","usage":{"input_tokens":1},"output":[{"type":"function_call"}]}`, false},
		{"escaped word", 200, jsonHeader, `{"content":[{"type":"tool\u005fuse"}]}`, false},
		{"error status", 400, jsonHeader, `{"error":{}}`, false},
		{"not json", 200, http.Header{"Content-Type": {"text/html"}}, `<html>`, false},
		{"not an object", 200, jsonHeader, `[]`, false},
		{"compressed", 200, http.Header{"Content-Type": {"application/json"}, "Content-Encoding": {"gzip"}}, `{}`, false},
	} {
		if got := providers.NoToolCalls(tc.status, tc.header, []byte(tc.body)); got != tc.want {
			t.Errorf("%s: NoToolCalls = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzNoToolCalls holds NoToolCalls to every wire's decoder: a body it
// spares must decode to no tool call.
func FuzzNoToolCalls(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hi"}]}`,
		`{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`,
		`{"output":[{"type":"message","content":[{"type":"output_text","text":"hi"}]}]}`,
		`{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}`,
		`{"output":{"message":{"role":"assistant","content":[{"text":"hi"}]}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !providers.NoToolCalls(200, jsonHeader, body) {
			return
		}
		for _, w := range providers.Wires() {
			resp, err := providers.For(w).DecodeResponse(200, jsonHeader, body)
			if err == nil && toolCallsIn(resp) > 0 {
				t.Fatalf("%s decodes %d tool calls from a body NoToolCalls spares: %q", w, toolCallsIn(resp), body)
			}
		}
	})
}

// A real answer (a thinking block, its signature and 1.1 KB of markdown);
// an English answer of 2 KB; and one that holds the bytes the words are
// found by in every sentence.
func BenchmarkNoToolCalls(b *testing.B) {
	c, err := cassette.Load(filepath.Join(corpus.Dir(b), "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_thinking_part.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct{ name, sentence string }{
		{"answer", ""},
		{"prose", "It was the best of times, it was the worst of times; the function of the tool was to help. "},
		{"prose-with-parts", "It was the best of times, it was the worst of times; Call the tool to Use it, input_tokens. "},
	} {
		body := c.Interactions[0].Response.Body
		if tc.sentence != "" {
			text := strings.Repeat(tc.sentence, 2048/len(tc.sentence))
			body = []byte(`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"` + text + `"}],"stop_reason":"end_turn"}`)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for range b.N {
				if !providers.NoToolCalls(200, jsonHeader, body) {
					b.Fatal("a tool call found in prose")
				}
			}
		})
	}
}
