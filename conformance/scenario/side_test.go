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

// A request of the conversation is not a side request; a title request is.
func TestIsSide(t *testing.T) {
	sc, err := scenario.Load("anthropic/schema-retry")
	if err != nil {
		t.Fatal(err)
	}
	user := func(s string) engine.Message {
		return engine.Message{Role: engine.RoleUser, Blocks: []engine.Block{{Type: engine.BlockText, Text: s}}}
	}
	if _, side := sc.IsSide(&engine.Request{Messages: []engine.Message{user(sc.Turns[0].Prompt)}}); side {
		t.Error("the scenario's own turn was taken for a side request")
	}
	if why, side := sc.IsSide(&engine.Request{Messages: []engine.Message{user("Write a title for: planning a trip")}}); !side || why == "" {
		t.Error("a title request was taken for the conversation")
	}
}
