package engine

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

// Small builders for transcripts in tests.

func text(s string) traffic.Block { return traffic.Block{Type: traffic.BlockText, Text: s} }

func callB(id, name, input string) traffic.Block {
	return traffic.Block{Type: traffic.BlockToolCall, ID: id, Name: name, Input: json.RawMessage(input)}
}

func resultB(id string) traffic.Block {
	return traffic.Block{Type: traffic.BlockToolResult, ToolCallID: id, Content: []traffic.Block{text("ok")}}
}

func thinkingB(sig string) traffic.Block {
	return traffic.Block{Type: traffic.BlockThinking, Text: "hmm", Signature: json.RawMessage(sig)}
}

func sys(s string) traffic.Message {
	return traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{text(s)}}
}
func user(s string) traffic.Message {
	return traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{text(s)}}
}
func asst(bs ...traffic.Block) traffic.Message {
	return traffic.Message{Role: traffic.RoleAssistant, Blocks: bs}
}
func toolMsg(ids ...string) traffic.Message {
	return traffic.Message{Role: traffic.RoleTool, Blocks: results(ids...)}
}
func userResults(bs ...traffic.Block) traffic.Message {
	return traffic.Message{Role: traffic.RoleUser, Blocks: bs}
}

func results(ids ...string) []traffic.Block {
	var bs []traffic.Block
	for _, id := range ids {
		bs = append(bs, resultB(id))
	}
	return bs
}

// applyValid applies ms in order, failing on a rejection, and checks the
// transcript with ValidateOpen after every mutation.
func applyValid(t *testing.T, tr *Transcript, ms ...Mutation) {
	t.Helper()
	for i, m := range ms {
		if err := tr.Apply(m); err != nil {
			t.Fatalf("mutation %d (%s): %v", i, m.Kind(), err)
		}
		if err := ValidateOpen(tr.Messages()); err != nil {
			t.Fatalf("after mutation %d (%s): %v", i, m.Kind(), err)
		}
	}
}

func newTranscript(t *testing.T, msgs ...traffic.Message) *Transcript {
	t.Helper()
	tr, err := NewTranscript(msgs...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// roles renders a history as its roles and block kinds, e.g.
// "system user assistant[tool_call] tool".
func roles(msgs []traffic.Message) string {
	s := ""
	for i, m := range msgs {
		if i > 0 {
			s += " "
		}
		s += string(m.Role)
		if m.Role == traffic.RoleAssistant {
			kinds := ""
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockText {
					continue
				}
				if kinds != "" {
					kinds += ","
				}
				kinds += string(b.Type)
			}
			if kinds != "" {
				s += "[" + kinds + "]"
			}
		}
	}
	return s
}
