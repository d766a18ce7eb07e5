package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		msgs []traffic.Message
		open bool
		// want lists "path rule message-fragment" of each problem; empty = valid.
		want []string
	}{
		{name: "plain chat", msgs: []traffic.Message{sys("s"), user("hi"), asst(text("hello"))}},
		{name: "tool loop, tool role", msgs: []traffic.Message{user("q"), asst(thinkingB(`"sig"`), callB("a", "f", `{}`), callB("b", "g", `{}`)), toolMsg("b"), toolMsg("a"), asst(text("done"))}},
		{name: "tool loop, anthropic shape", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), userResults(resultB("a"), text("trailing")), asst(text("done"))}},
		{name: "responses items are one turn", msgs: []traffic.Message{user("q"), asst(traffic.Block{Type: traffic.BlockReasoning, ItemID: "rs_1"}), asst(callB("a", "f", `""`)), asst(callB("b", "f", `""`)), toolMsg("a", "b")}},
		{name: "gemini without ids pairs by name", msgs: []traffic.Message{user("q"), asst(callB("", "f", `{}`), callB("", "g", `{}`)), userResults(traffic.Block{Type: traffic.BlockToolResult, Name: "g"}, traffic.Block{Type: traffic.BlockToolResult, Name: "f"})}},
		{name: "gemini thought parts need no signature", msgs: []traffic.Message{user("q"), asst(traffic.Block{Type: traffic.BlockThinking, Thought: true, Text: "t"}, text("a"))}},
		{name: "open batch", open: true, msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`), callB("b", "f", `{}`)), toolMsg("a")}},

		{name: "unanswered call", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), user("next")},
			want: []string{"messages[1].blocks[0] tool-pairing tool call a (f) has no result before messages[2]"}},
		{name: "unanswered at end", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`))},
			want: []string{"messages[1].blocks[0] tool-pairing has no result before the end of the transcript"}},
		{name: "open still needs results before other content", open: true, msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), user("x")},
			want: []string{"messages[1].blocks[0] tool-pairing no result before messages[2]"}},
		{name: "result after other content", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), userResults(text("x"), resultB("a"))},
			want: []string{"messages[1].blocks[0] tool-pairing no result before messages[2]", "messages[2].blocks[1] tool-pairing must come before any other content"}},
		{name: "orphan result", msgs: []traffic.Message{user("q"), toolMsg("zz")},
			want: []string{"messages[1].blocks[0] tool-pairing follows no assistant tool call"}},
		{name: "result for another turn", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), toolMsg("a"), asst(callB("b", "f", `{}`)), toolMsg("a", "b")},
			want: []string{"messages[4].blocks[0] tool-pairing answers no call of the preceding assistant turn"}},
		{name: "answered twice", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), toolMsg("a", "a")},
			want: []string{"messages[2].blocks[1] tool-pairing answered twice"}},
		{name: "duplicate id", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), toolMsg("a"), asst(callB("a", "f", `{}`)), toolMsg("a")},
			want: []string{"messages[3].blocks[0] tool-pairing already used at messages[1].blocks[0]"}},
		{name: "thinking not first", msgs: []traffic.Message{user("q"), asst(text("x"), thinkingB(`"s"`), text("y"))},
			want: []string{"messages[1].blocks[1] thinking-placement must start with it, found text first"}},
		{name: "unsigned thinking", msgs: []traffic.Message{user("q"), asst(traffic.Block{Type: traffic.BlockThinking, Text: "t"}, text("y"))},
			want: []string{"messages[1].blocks[0] thinking-placement without a signature"}},
		{name: "redacted without data", msgs: []traffic.Message{user("q"), asst(traffic.Block{Type: traffic.BlockRedacted}, text("y"))},
			want: []string{"messages[1].blocks[0] block-shape without data"}},
		{name: "thinking in user message", msgs: []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{thinkingB(`"s"`)}}},
			want: []string{"messages[0].blocks[0] thinking-placement a user message cannot hold a thinking block"}},
		{name: "final message ends in thinking", msgs: []traffic.Message{user("q"), asst(thinkingB(`"s"`))},
			want: []string{"messages[1].blocks[0] thinking-placement ends in a thinking block"}},
		{name: "call without name", msgs: []traffic.Message{user("q"), asst(callB("a", "", `{}`)), toolMsg("a")},
			want: []string{"messages[1].blocks[0] block-shape without a name"}},
		{name: "text in tool message", msgs: []traffic.Message{user("q"), asst(callB("a", "f", `{}`)), {Role: traffic.RoleTool, Blocks: []traffic.Block{resultB("a"), text("x")}}},
			want: []string{"messages[2].blocks[1] block-shape only tool results, found text"}},
		{name: "result in assistant message", msgs: []traffic.Message{user("q"), asst(resultB("a"))},
			want: []string{"messages[1].blocks[0] tool-pairing cannot hold a tool result"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			validate := Validate
			if tt.open {
				validate = ValidateOpen
			}
			err := validate(tt.msgs)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var te *TranscriptError
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a TranscriptError", err)
			}
			if len(te.Problems) != len(tt.want) {
				t.Fatalf("got %d problems, want %d: %v", len(te.Problems), len(tt.want), err)
			}
			for i, w := range tt.want {
				parts := strings.SplitN(w, " ", 3)
				p := te.Problems[i]
				if p.Path != parts[0] || p.Rule != parts[1] || !strings.Contains(p.Message, parts[2]) {
					t.Errorf("problem %d = %s\nwant %s", i, p, w)
				}
			}
		})
	}
}

// A Gemini thought part may follow other parts of its turn; the leading
// rule is Anthropic's.
func TestValidateGeminiThoughtAfterText(t *testing.T) {
	msgs := []traffic.Message{
		{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "hi"}}},
		{Role: traffic.RoleAssistant, Blocks: []traffic.Block{
			{Type: traffic.BlockText, Text: "Let me think."},
			{Type: traffic.BlockThinking, Thought: true, Text: "a thought summary"},
			{Type: traffic.BlockText, Text: "Done."},
		}},
	}
	if err := Validate(msgs); err != nil {
		t.Errorf("Validate: %v", err)
	}
	msgs[1].Blocks[1].Thought = false // the same block as an Anthropic thinking block
	msgs[1].Blocks[1].Signature = []byte(`"sig"`)
	if err := Validate(msgs); err == nil {
		t.Error("an Anthropic thinking block after text must be rejected")
	}
}
