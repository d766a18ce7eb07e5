package harness

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// randomHistory builds a closed transcript the way the loop does, through
// mutations, from a seed: tool turns of one to three calls (Gemini ones
// without provider ids, so with local ids; every first call signed),
// answered in any order by results, errors or cancellations, sometimes
// with a Responses reasoning item (with or without payload) or text first,
// sometimes followed by user text, ending with an answer.
func randomHistory(t *testing.T, wire traffic.Wire, seed uint64) []traffic.Message {
	rng := rand.New(rand.NewPCG(seed, seed>>7))
	tr, err := engine.NewTranscript(traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	apply := func(m engine.Mutation) {
		t.Helper()
		if err := tr.Apply(m); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	calls := 0
	for turn := rng.IntN(4); turn >= 0; turn-- {
		var items []traffic.Message
		if wire == traffic.WireResponses && rng.IntN(2) == 0 {
			rs := traffic.Block{Type: traffic.BlockReasoning, WireType: "reasoning", ItemID: fmt.Sprintf("rs_%d", turn)}
			if rng.IntN(3) > 0 {
				rs.EncryptedContent = json.RawMessage(`"gAAA\/` + fmt.Sprint(turn) + `=="`)
			}
			items = append(items, traffic.Message{Role: traffic.RoleAssistant, WireType: "reasoning", Blocks: []traffic.Block{rs}})
		}
		if rng.IntN(2) == 0 {
			items = append(items, traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "looking"}}})
		}
		n := 1 + rng.IntN(3)
		var ids []string
		for k := 0; k < n; k++ {
			calls++
			b := traffic.Block{Type: traffic.BlockToolCall, Name: fmt.Sprintf("tool%d", rng.IntN(2)), Input: json.RawMessage(`{"n":1}`)}
			switch wire {
			case traffic.WireGemini:
				b.ID = fmt.Sprintf("%sseed-%d", LocalCallIDPrefix, calls)
				if k == 0 {
					b.Signature = json.RawMessage(`"Sig\/` + fmt.Sprint(calls) + `"`)
				}
			case traffic.WireResponses:
				b.ID, b.ItemID, b.WireType, b.Input = fmt.Sprintf("call_%d", calls), fmt.Sprintf("fc_%d", calls), "function_call", json.RawMessage(`"{\"n\":1}"`)
			}
			ids = append(ids, b.ID)
			items = append(items, traffic.Message{Role: traffic.RoleAssistant, WireType: b.WireType, Blocks: []traffic.Block{b}})
		}
		if wire == traffic.WireGemini { // one message per reply on this wire
			joined := traffic.Message{Role: traffic.RoleAssistant}
			for _, it := range items {
				joined.Blocks = append(joined.Blocks, it.Blocks...)
			}
			items = []traffic.Message{joined}
		}
		apply(engine.AssistantItems{Items: items})
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			switch rng.IntN(3) {
			case 0:
				apply(engine.ToolResult{ToolCallID: id, Content: "ok <" + id + ">"})
			case 1:
				apply(engine.ToolResult{ToolCallID: id, Content: "failed", IsError: true})
			default:
				apply(engine.ToolCancelled{ToolCallID: id, AbortReason: "user"})
			}
		}
		if rng.IntN(2) == 0 {
			apply(engine.UserMessage{Message: traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "more"}}}})
		}
	}
	apply(engine.AssistantMessage{Message: traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "done"}}}})
	apply(engine.UserMessage{Message: traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "next"}}}})
	return tr.Messages()
}

// Any history the loop can build, shaped for the Responses or Gemini wire
// and written by its codec, reads back as a valid transcript that keeps the
// wire's pairing rules: on Gemini as many function responses as calls, in
// call order, no made-up id on the wire; on Responses every call answered
// and every reasoning item sent with its payload and a following item.
func FuzzShape(f *testing.F) {
	for seed := range uint64(24) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, wire := range []traffic.Wire{traffic.WireResponses, traffic.WireGemini} {
			history := randomHistory(t, wire, seed)
			req := &traffic.Request{Wire: wire, Model: "m"}
			req.System, req.Messages = shape(wire, nil, history)
			codec := providers.For(wire)
			body, err := codec.EncodeRequest(req)
			if err != nil {
				t.Fatalf("%s seed %d: %v", wire, seed, err)
			}
			back, err := codec.DecodeRequest(body)
			if err != nil {
				t.Fatalf("%s seed %d: %v\n%s", wire, seed, err, body)
			}
			if err := engine.Validate(back.Messages); err != nil {
				t.Fatalf("%s seed %d: %v\n%s", wire, seed, err, body)
			}
			switch wire {
			case traffic.WireGemini:
				checkGeminiPairs(t, history, back.Messages, body)
			case traffic.WireResponses:
				checkResponsesItems(t, back.Messages, body)
			}
		}
	})
}

func checkGeminiPairs(t *testing.T, history, sent []traffic.Message, body []byte) {
	t.Helper()
	if strings.Contains(string(body), `"id"`) {
		t.Fatalf("an id went on the wire:\n%s", body)
	}
	var calls [][]string // names, per model turn with calls, from the history
	for _, m := range history {
		var names []string
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockToolCall {
				names = append(names, b.Name)
			}
		}
		if len(names) > 0 {
			calls = append(calls, names)
		}
	}
	turn := 0
	for i, m := range sent {
		n := 0
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockToolCall {
				n++
			}
		}
		if n == 0 {
			continue
		}
		if i+1 >= len(sent) || sent[i+1].Role != traffic.RoleUser || len(sent[i+1].Blocks) != n {
			t.Fatalf("contents[%d] has %d calls; the next content does not answer them all (G7):\n%s", i, n, body)
		}
		for k, b := range sent[i+1].Blocks {
			if b.Type != traffic.BlockToolResult || b.Name != calls[turn][k] {
				t.Fatalf("contents[%d].parts[%d]: %s %s, want the response to call %d (%s)", i+1, k, b.Type, b.Name, k, calls[turn][k])
			}
		}
		turn++
	}
}

func checkResponsesItems(t *testing.T, sent []traffic.Message, body []byte) {
	t.Helper()
	outputs := map[string]bool{}
	for _, m := range sent {
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockToolResult {
				outputs[b.ToolCallID] = true
			}
		}
	}
	for i, m := range sent {
		for _, b := range m.Blocks {
			switch b.Type {
			case traffic.BlockReasoning:
				if len(b.EncryptedContent) == 0 || i+1 >= len(sent) || sent[i+1].Role != traffic.RoleAssistant {
					t.Fatalf("input[%d]: reasoning item without payload or follower (R1, R3):\n%s", i, body)
				}
			case traffic.BlockToolCall:
				if !outputs[b.ID] {
					t.Fatalf("input[%d]: call %s has no output (R5):\n%s", i, b.ID, body)
				}
			}
		}
	}
}
