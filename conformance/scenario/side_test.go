package scenario_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/providers"
)

// A side reply decodes, on every wire and streamed or not, as one
// assistant message with SideText.
func TestSideReplyOnEveryWire(t *testing.T) {
	for _, w := range []engine.Wire{engine.WireAnthropic, engine.WireOpenAI, engine.WireResponses, engine.WireGemini, engine.WireBedrock} {
		for _, stream := range []bool{false, true} {
			parts, ct, err := scenario.SideReply(scenario.NewMinter([]byte("k")), w, &engine.Request{Wire: w, Model: "m", Stream: stream}, stream)
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
	text := func(s string) []engine.Block { return []engine.Block{{Type: engine.BlockText, Text: s}} }
	user := func(s string) []engine.Message { return []engine.Message{{Role: engine.RoleUser, Blocks: text(s)}} }
	tools := []engine.Tool{{Name: sc.Tools[0].Name}}
	prompt := sc.Turns[0].Prompt
	for _, c := range []struct {
		name string
		req  engine.Request
		side bool
	}{
		{"the turn", engine.Request{System: text(sc.System), Messages: user(prompt), Tools: tools}, false},
		{"the turn, the time added to the system prompt", engine.Request{System: text(sc.System + " It is 09:12 UTC."), Messages: user(prompt), Tools: tools}, false},
		{"the turn, its system prompt rewritten but its tools sent", engine.Request{System: text("You help."), Messages: user(prompt), Tools: tools}, false},
		{"the turn, its system prompt and tools forgotten", engine.Request{Messages: user(prompt)}, false},
		{"a title of another text", engine.Request{Messages: user("Write a title for: planning a trip")}, true},
		{"a title quoting the prompt", engine.Request{System: text("Write a five-word title."), Messages: user(prompt)}, true},
	} {
		why, side := sc.IsSide(&c.req)
		if side != c.side || side && why == "" {
			t.Errorf("%s: side = %v (%q), want %v", c.name, side, why, c.side)
		}
	}
}
