package scenario_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// A side reply decodes, on every wire and streamed or not, as one
// assistant message with SideText.
func TestSideReplyOnEveryWire(t *testing.T) {
	for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock} {
		for _, stream := range []bool{false, true} {
			parts, ct, err := scenario.SideReply(scenario.NewMinter([]byte("k")), w, &traffic.Request{Wire: w, Model: "m", Stream: stream}, stream)
			if err != nil {
				t.Fatalf("%s stream=%v: %v", w, stream, err)
			}
			resp, err := providers.For(w).DecodeResponse(200, http.Header{"Content-Type": {ct}}, bytes.Join(parts, nil))
			if err != nil {
				t.Fatalf("%s stream=%v: %v", w, stream, err)
			}
			got := ""
			for _, m := range resp.Output {
				for _, b := range m.Blocks {
					got += b.Text
				}
			}
			if got != scenario.SideText {
				t.Errorf("%s stream=%v: text %q", w, stream, got)
			}
		}
	}
}

// A request of the conversation is not a side request; a title request is,
// also when it quotes the user's first message.
func TestIsSide(t *testing.T) {
	sc, err := scenario.Load("anthropic/thinking-tool-loop")
	if err != nil {
		t.Fatal(err)
	}
	text := func(s string) []traffic.Block { return []traffic.Block{{Type: traffic.BlockText, Text: s}} }
	user := func(s string) []traffic.Message { return []traffic.Message{{Role: traffic.RoleUser, Blocks: text(s)}} }
	tools := []traffic.Tool{{Name: sc.Tools[0].Name}}
	prompt := sc.Turns[0].Prompt
	for _, c := range []struct {
		name string
		req  traffic.Request
		side bool
	}{
		{"the turn", traffic.Request{System: text(sc.System), Messages: user(prompt), Tools: tools}, false},
		{"the turn, the time added to the system prompt", traffic.Request{System: text(sc.System + " It is 09:12 UTC."), Messages: user(prompt), Tools: tools}, false},
		{"the turn, its system prompt rewritten but its tools sent", traffic.Request{System: text("You help."), Messages: user(prompt), Tools: tools}, false},
		{"the turn, its system prompt and tools forgotten", traffic.Request{Messages: user(prompt)}, false},
		{"a title of another text", traffic.Request{Messages: user("Write a title for: planning a trip")}, true},
		{"a title quoting the prompt", traffic.Request{System: text("Write a five-word title."), Messages: user(prompt)}, true},
	} {
		why, side := sc.IsSide(&c.req)
		if side != c.side || side && why == "" {
			t.Errorf("%s: side = %v (%q), want %v", c.name, side, why, c.side)
		}
	}
}
