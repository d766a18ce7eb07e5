package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

func reasoningItem(id, enc string) traffic.Message {
	return traffic.Message{Role: traffic.RoleAssistant, WireType: "reasoning", Blocks: []traffic.Block{{Type: traffic.BlockReasoning, ItemID: id, EncryptedContent: json.RawMessage(enc)}}}
}

func callItem(id, name string) traffic.Message {
	b := callB(id, name, `"{}"`)
	b.ItemID = "fc_" + id
	return traffic.Message{Role: traffic.RoleAssistant, WireType: "function_call", Blocks: []traffic.Block{b}}
}

// A multi-item reply lands as one assistant message per item, in order,
// and its calls wait together; a bad item rejects the whole reply.
func TestAssistantItems(t *testing.T) {
	base := []traffic.Message{sys("s"), user("q")}
	reply := []traffic.Message{reasoningItem("rs_1", `"gAAA"`), asst(text("Let me look.")), callItem("c1", "f"), callItem("c2", "g")}
	tests := []struct {
		name    string
		start   []traffic.Message
		ms      []Mutation
		err     error
		roles   string
		pending string
	}{
		{name: "items stay apart, calls wait together", start: base, ms: []Mutation{AssistantItems{reply}},
			roles: "system user assistant[reasoning] assistant assistant[tool_call] assistant[tool_call]", pending: "c1,c2"},
		{name: "results close the turn", start: base, ms: []Mutation{AssistantItems{reply}, ToolResult{ToolCallID: "c2"}, ToolCancelled{ToolCallID: "c1"}},
			roles: "system user assistant[reasoning] assistant assistant[tool_call] assistant[tool_call] tool tool"},
		{name: "empty role means assistant", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{{Blocks: []traffic.Block{text("hi")}}}}},
			roles: "system user assistant"},
		{name: "multimodal result drops an item left empty", start: base, ms: []Mutation{AssistantItems{reply},
			MultimodalToolResult{ToolCallID: "c1", UserMessages: []traffic.Message{{Blocks: []traffic.Block{{Type: traffic.BlockImage, MediaType: "image/png"}}}}}, ToolResult{ToolCallID: "c2"}},
			roles: "system user assistant[reasoning] assistant assistant[tool_call] tool assistant user"},

		{name: "while calls wait", start: base, ms: []Mutation{AssistantItems{reply}, AssistantItems{[]traffic.Message{asst(text("x"))}}},
			err: ErrPendingToolCalls, roles: "system user assistant[reasoning] assistant assistant[tool_call] assistant[tool_call]", pending: "c1,c2"},
		{name: "no item", start: base, ms: []Mutation{AssistantItems{}}, err: ErrInvalidMessage, roles: "system user"},
		{name: "an empty item", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{asst(text("a")), asst()}}}, err: ErrInvalidMessage, roles: "system user"},
		{name: "a user item", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{asst(text("a")), user("b")}}}, err: ErrInvalidMessage, roles: "system user"},
		{name: "an ephemeral item", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{{Role: traffic.RoleAssistant, Ephemeral: true, Blocks: []traffic.Block{text("a")}}}}},
			err: ErrInvalidMessage, roles: "system user"},
		{name: "the same id in two items", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{callItem("c1", "f"), callItem("c1", "f")}}},
			err: ErrDuplicateToolCall, roles: "system user"},
		{name: "an id used earlier", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{callItem("c1", "f")}}, ToolResult{ToolCallID: "c1"},
			AssistantItems{[]traffic.Message{callItem("c1", "f")}}},
			err: ErrDuplicateToolCall, roles: "system user assistant[tool_call] tool"},
		{name: "a call without id", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{asst(text("a")), asst(callB("", "f", `{}`))}}},
			err: ErrInvalidMessage, roles: "system user"},
		{name: "unsigned thinking in one item", start: base, ms: []Mutation{AssistantItems{[]traffic.Message{asst(text("a")), asst(traffic.Block{Type: traffic.BlockThinking, Text: "t"})}}},
			err: ErrInvalidMessage, roles: "system user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := newTranscript(t, tt.start...)
			var err error
			for _, m := range tt.ms {
				if err = tr.Apply(m); err != nil {
					break
				}
				if verr := ValidateOpen(tr.Messages()); verr != nil {
					t.Fatalf("after %s: %v", m.Kind(), verr)
				}
			}
			if !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if got := roles(tr.Messages()); got != tt.roles {
				t.Errorf("history %q, want %q", got, tt.roles)
			}
			var p []string
			for _, c := range tr.Pending() {
				p = append(p, c.ID)
			}
			if got := strings.Join(p, ","); got != tt.pending {
				t.Errorf("pending %q, want %q", got, tt.pending)
			}
			if tt.pending == "" && tt.err == nil {
				if err := Validate(tr.Messages()); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// The items' own fields survive: item ids, message Extra, raw payloads.
func TestAssistantItemsKeepFields(t *testing.T) {
	msg := asst(text("done"))
	msg.WireType = "message"
	msg.Extra = map[string]json.RawMessage{"id": json.RawMessage(`"msg_1"`), "phase": json.RawMessage(`"final_answer"`)}
	tr := newTranscript(t, user("q"))
	applyValid(t, tr, AssistantItems{[]traffic.Message{reasoningItem("rs_1", `"gAAA\u003c"`), msg}})
	got := tr.Messages()
	if string(got[1].Blocks[0].EncryptedContent) != `"gAAA\u003c"` || got[1].Blocks[0].ItemID != "rs_1" {
		t.Errorf("reasoning item %+v", got[1].Blocks[0])
	}
	if string(got[2].Extra["phase"]) != `"final_answer"` || got[2].WireType != "message" {
		t.Errorf("message item %+v", got[2])
	}
}

// Only the LLM phase produces it, as for AssistantMessage.
func TestAssistantItemsPhase(t *testing.T) {
	if k := (AssistantItems{}).Kind(); k != KindAssistantMessage {
		t.Errorf("kind %s", k)
	}
	var b Batch
	if err := b.Add(PhaseTool, AssistantItems{[]traffic.Message{asst(text("x"))}}); err == nil {
		t.Error("the tool phase produced an assistant reply")
	}
	if err := b.Add(PhaseLLM, AssistantItems{[]traffic.Message{asst(text("x"))}}); err != nil {
		t.Error(err)
	}
}
