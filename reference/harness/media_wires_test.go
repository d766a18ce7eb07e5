package harness_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/reference/harness"
	"github.com/llmtck/llmtck/traffic"
)

// Media parts are {mediaType, data} in the model
// (docs/reference-model.md, seed 004): a user's neutral image goes out on every wire in that wire's
// form, and the history keeps it neutral.
func TestNeutralMediaOnEveryWire(t *testing.T) {
	const png = "iVBORw0KGgoAAAANSUhEUg=="
	want := map[traffic.Wire]string{
		traffic.WireAnthropic: `"source":{"type":"base64","media_type":"image/png","data":"` + png + `"}`,
		traffic.WireOpenAI:    `"image_url":{"url":"data:image/png;base64,` + png + `"}`,
		traffic.WireResponses: `"image_url":"data:image/png;base64,` + png + `"`,
		traffic.WireGemini:    `"inlineData":{"mimeType":"image/png","data":"` + png + `"}`,
		traffic.WireBedrock:   `"image":{"format":"png","source":{"bytes":"` + png + `"}}`,
	}
	for _, wire := range providers.Wires() {
		t.Run(string(wire), func(t *testing.T) {
			p := newWireProvider(t, wire, recorded(200, "application/json", []byte(textReply[wire])))
			h, err := harness.New(harness.Config{BaseURL: p.srv.URL, Wire: wire, Model: "m", APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			q := traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "what is this?"}, media.Block("image/png", png)}}
			run, err := h.Start(context.Background(), harness.Params{Messages: []traffic.Message{q}})
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, collect(t, run.Events(), nil))
			if !strings.Contains(p.body(0), want[wire]) {
				t.Errorf("the request lacks %s:\n%s", want[wire], p.body(0))
			}
			if mt, data, ok := media.Neutral(run.Transcript().Messages()[0].Blocks[1].Source); !ok || mt != "image/png" || data != png {
				t.Errorf("the history does not keep the image neutral")
			}
		})
	}
}
