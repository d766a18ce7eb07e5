package harness_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// textReply is a one-text answer as each wire's JSON body.
var textReply = map[traffic.Wire]string{
	traffic.WireAnthropic: `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`,
	traffic.WireOpenAI:    `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
	traffic.WireResponses: `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"m","output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"ok","annotations":[]}]}],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}`,
	traffic.WireGemini:    `{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2},"modelVersion":"m"}`,
	traffic.WireBedrock:   `{"output":{"message":{"role":"assistant","content":[{"text":"ok"}]}},"stopReason":"end_turn","usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}`,
}

// officialURL is where each wire's provider takes a non-streamed call.
var officialURL = map[traffic.Wire]string{
	traffic.WireAnthropic: "https://api.anthropic.com/v1/messages",
	traffic.WireOpenAI:    "https://api.openai.com/v1/chat/completions",
	traffic.WireResponses: "https://api.openai.com/v1/responses",
	traffic.WireGemini:    "https://generativelanguage.googleapis.com/v1beta/models/m:generateContent",
	traffic.WireBedrock:   "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse",
}

// Any message may be ephemeral, and it is sent with the next request
// (docs/reference-model.md, seed 000). On every wire an ephemeral
// system message goes to the system prompt (never a system role inside the
// conversation, which Anthropic, Bedrock and Gemini refuse), and ephemeral
// assistant and user messages (a refused answer and the retry's feedback)
// follow the history with roles still alternating; the live linter finds
// no error in the request.
func TestEphemeralPlacedOnEveryWire(t *testing.T) {
	for _, wire := range providers.Wires() {
		t.Run(string(wire), func(t *testing.T) {
			p := newWireProvider(t, wire, recorded(200, "application/json", []byte(textReply[wire])))
			h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: wire, Model: "m", APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			eph := func(role traffic.Role, s string) traffic.Message {
				return traffic.Message{Role: role, Ephemeral: true, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: s}}}
			}
			msgs := []traffic.Message{
				{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "SYS"}}},
				userText("q"),
				{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "a"}}},
				userText("q2"),
				eph(traffic.RoleSystem, "EPH-SYSTEM"),
				eph(traffic.RoleAssistant, "EPH-REFUSED-ANSWER"),
				eph(traffic.RoleUser, "EPH-FEEDBACK"),
			}
			run, err := h.Start(context.Background(), harness.Params{Messages: msgs})
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, collect(t, run.Events(), nil))
			req := p.requests()[0]
			system := req.System
			conv := req.Messages
			if wire == traffic.WireOpenAI {
				if len(conv) == 0 || conv[0].Role != traffic.RoleSystem {
					t.Fatalf("chat request does not lead with its system message: %+v", conv)
				}
				system, conv = conv[0].Blocks, conv[1:]
			}
			var sys []string
			for _, b := range system {
				sys = append(sys, b.Text)
			}
			// Responses writes its instructions as one string, lines joined.
			if got := strings.ReplaceAll(strings.Join(sys, "|"), "\n", "|"); got != "SYS|EPH-SYSTEM" {
				t.Errorf("system prompt %q, want SYS|EPH-SYSTEM", got)
			}
			var roles []string
			for i, m := range conv {
				roles = append(roles, string(m.Role))
				if m.Role == traffic.RoleSystem || m.Role == traffic.RoleDeveloper {
					t.Errorf("messages[%d] has role %s inside the conversation", i, m.Role)
				}
				if i > 0 && conv[i-1].Role == m.Role {
					t.Errorf("messages[%d] repeats role %s", i, m.Role)
				}
			}
			if got := strings.Join(roles, " "); got != "user assistant user assistant user" {
				t.Errorf("roles %q", got)
			}
			if s := string(p.bodies[0]); !strings.Contains(s, "EPH-REFUSED-ANSWER") || !strings.Contains(s, "EPH-FEEDBACK") {
				t.Errorf("ephemeral messages missing:\n%s", s)
			}
			ex := providers.Decode(0, providers.Call{Method: "POST", URL: officialURL[wire], RequestBody: p.bodies[0],
				Status: 200, ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: []byte(textReply[wire])})
			for _, f := range lint.New(nil).Judge(ex).Findings {
				if f.Severity == check.SeverityError {
					t.Errorf("the linter refuses the request: %s %s", f.Check, f.Message)
				}
			}
			for _, m := range run.Transcript().Messages() {
				for _, b := range m.Blocks {
					if strings.HasPrefix(b.Text, "EPH-") {
						t.Errorf("ephemeral text in history: %q", b.Text)
					}
				}
			}
		})
	}
}
