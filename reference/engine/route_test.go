package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// routeTags are every tag the routing distinguishes: no tag, plain-text,
// the six tags of the wires' reasoning channels, and a foreign one.
var routeTags = []string{"", engine.ReplayPlainText,
	engine.ReplayAnthropicThinking, engine.ReplayAnthropicRedacted, engine.ReplayResponsesReasoning,
	engine.ReplayGeminiSignature, engine.ReplayBedrockReasoning, engine.ReplayBedrockRedacted,
	"deepseek-reasoning-handle-v1"}

// nativeField is the JSON key a wire's reasoning channel carries a tag's
// payload under.
var nativeField = map[string]string{
	engine.ReplayAnthropicThinking:  `"signature":`,
	engine.ReplayAnthropicRedacted:  `"data":`,
	engine.ReplayResponsesReasoning: `"encrypted_content":`,
	engine.ReplayGeminiSignature:    `"thoughtSignature":`,
	engine.ReplayBedrockReasoning:   `"signature":`,
	engine.ReplayBedrockRedacted:    `"redactedContent":`,
}

// Thoughts are routed by (tag, the adapter's wire): an opaque thought
// whose tag the adapter declares goes to the wire's typed reasoning channel
// only when the tag is that wire's, and to the side channel otherwise; an
// undeclared one is elided. Every tag × wire, declared and not, is encoded
// by the wire's codec, and the payload is found exactly where the route
// says and nowhere else (docs/reference-model.md, seed 003).
func TestRouteByTagAndWire(t *testing.T) {
	for _, wire := range providers.Wires() {
		for _, tag := range routeTags {
			for _, declared := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/declared=%v", wire, tag, declared)
				if tag == "" {
					name = fmt.Sprintf("%s/untagged/declared=%v", wire, declared)
				}
				t.Run(name, func(t *testing.T) { routeOne(t, wire, tag, declared) })
			}
		}
	}
}

func routeOne(t *testing.T, wire traffic.Wire, tag string, declared bool) {
	accepts := engine.ReplayTags(wire)
	if declared && tag != "" {
		accepts = append(accepts, tag)
	}
	payload := `"UDEtcGF5bG9hZA=="`
	raw := engine.RawThought{ID: "th_1", Content: "weighing it", CreatedAt: int64(1), UpdatedAt: int64(1), ReplayCompatibility: tag}
	if tag != "" && tag != engine.ReplayPlainText {
		raw.Payload = json.RawMessage(payload)
	}
	th, err := engine.NewThought(raw)
	if err != nil {
		t.Fatal(err)
	}
	own, hasChannel := engine.ThoughtWire(tag)
	d := engine.RouteThoughts([]engine.Thought{th}, wire, accepts)
	got := fmt.Sprintf("opaque=%d plain=%d side=%d elided=%d", len(d.Opaque), len(d.Plain), len(d.Side), len(d.Elided))
	var want string
	switch {
	case !th.Opaque():
		want = "opaque=0 plain=1 side=0 elided=0"
	case !declared && !(hasChannel && own == wire):
		want = "opaque=0 plain=0 side=0 elided=1"
	case hasChannel && own == wire:
		want = "opaque=1 plain=0 side=0 elided=0"
	default:
		want = "opaque=0 plain=0 side=1 elided=0"
	}
	if got != want {
		t.Fatalf("routed %s, want %s", got, want)
	}

	tr, err := engine.NewTranscript(
		traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "q"}}},
		traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "a"}}},
		traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "q2"}}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := tr.Compile([]engine.Thought{th}, wire, accepts)
	if err != nil {
		t.Fatal(err)
	}
	req := &traffic.Request{Wire: wire, Model: "m", MaxTokens: 16, System: c.System, Messages: c.Messages}
	if side := engine.SideChannel(c.Thoughts.Side); side != nil {
		rawjson.SetExtra(&req.Extra, engine.SideChannelKey, side)
	}
	body, err := providers.For(wire).EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	s := string(body)
	switch {
	case !th.Opaque():
		if strings.Count(s, "<thought>weighing it</thought>") != 1 {
			t.Errorf("plain thought not inlined once:\n%s", s)
		}
	case len(d.Elided) == 1:
		if strings.Contains(s, payload) {
			t.Errorf("an elided payload was sent:\n%s", s)
		}
	case len(d.Opaque) == 1:
		if strings.Count(s, payload) != 1 || !strings.Contains(s, nativeField[tag]+payload) {
			t.Errorf("payload not on the reasoning channel as %s once:\n%s", nativeField[tag], s)
		}
		if strings.Contains(s, engine.SideChannelKey) {
			t.Errorf("a native thought went to the side channel too:\n%s", s)
		}
	default:
		if strings.Count(s, payload) != 1 || !strings.Contains(s, `"`+engine.SideChannelKey+`":[{"id":"th_1","replayCompatibility":"`+tag+`","payload":`+payload+`}]`) {
			t.Errorf("payload not on the side channel once:\n%s", s)
		}
	}
}
