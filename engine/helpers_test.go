package engine

import (
	"encoding/json"
	"testing"
)

// Small builders for transcripts in tests.

func text(s string) Block { return Block{Type: BlockText, Text: s} }

func callB(id, name, input string) Block {
	return Block{Type: BlockToolCall, ID: id, Name: name, Input: json.RawMessage(input)}
}

func resultB(id string) Block {
	return Block{Type: BlockToolResult, ToolCallID: id, Content: []Block{text("ok")}}
}

func thinkingB(sig string) Block {
	return Block{Type: BlockThinking, Text: "hmm", Signature: json.RawMessage(sig)}
}

func sys(s string) Message          { return Message{Role: RoleSystem, Blocks: []Block{text(s)}} }
func user(s string) Message         { return Message{Role: RoleUser, Blocks: []Block{text(s)}} }
func asst(bs ...Block) Message      { return Message{Role: RoleAssistant, Blocks: bs} }
func toolMsg(ids ...string) Message { return Message{Role: RoleTool, Blocks: results(ids...)} }
func userResults(bs ...Block) Message {
	return Message{Role: RoleUser, Blocks: bs}
}

func results(ids ...string) []Block {
	var bs []Block
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

func newTranscript(t *testing.T, msgs ...Message) *Transcript {
	t.Helper()
	tr, err := NewTranscript(msgs...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// roles renders a history as its roles and block kinds, e.g.
// "system user assistant[tool_call] tool".
func roles(msgs []Message) string {
	s := ""
	for i, m := range msgs {
		if i > 0 {
			s += " "
		}
		s += string(m.Role)
		if m.Role == RoleAssistant {
			kinds := ""
			for _, b := range m.Blocks {
				if b.Type == BlockText {
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
