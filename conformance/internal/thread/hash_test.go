package thread

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

// TestStartWorkedOutOnceIsTheHash: the fingerprints of a message that
// carries only its role, worked out once, are what hashing the message
// gives, and a message that carries more is hashed whole.
func TestStartWorkedOutOnceIsTheHash(t *testing.T) {
	roles := []traffic.Role{traffic.RoleUser, traffic.RoleAssistant, traffic.RoleSystem, traffic.RoleDeveloper, traffic.RoleTool, "model", ""}
	seen := map[uint64]traffic.Role{}
	for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireGemini} {
		for _, r := range roles {
			for _, m := range []traffic.Message{
				{Role: r},
				{Role: r, WireType: "message"},
				{Role: r, Name: "alice"},
				{Role: r, Extra: map[string]json.RawMessage{"status": json.RawMessage(`"completed"`)}},
			} {
				got, want := NewHasher(w).Start(&m), NewHasher(w).start(&m)
				if got != want {
					t.Errorf("%s: Start of %+v = %x, hashing it gives %x", w, m, got, want)
				}
				if w == traffic.WireAnthropic && m.WireType == "" && m.Name == "" && m.Extra == nil {
					if other, ok := seen[got]; ok {
						t.Errorf("roles %q and %q have one fingerprint", other, r)
					}
					seen[got] = r
				}
			}
		}
	}
}

// FuzzHasPayload: a message HasPayload finds no payload in has one
// fingerprint with payloads and without, on every wire; one with a
// payload is reported as having one.
func FuzzHasPayload(f *testing.F) {
	f.Add("t", []byte(nil), []byte(nil), []byte(nil), false, uint8(0))
	f.Add("t", []byte(`"c2ln"`), []byte(nil), []byte(nil), false, uint8(0))
	f.Add("t", []byte(nil), []byte(nil), []byte(`"enc"`), true, uint8(1))
	f.Add("t", []byte(nil), []byte(`"red"`), []byte(nil), true, uint8(2))
	f.Fuzz(func(t *testing.T, text string, sig, data, enc []byte, nested bool, kind uint8) {
		b := traffic.Block{Type: traffic.BlockText, Text: text, Signature: sig, Data: data, EncryptedContent: enc}
		if kind%3 == 1 {
			b.Type = traffic.BlockThinking
		}
		m := traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{b}}
		if nested {
			m.Blocks = []traffic.Block{{Type: traffic.BlockToolResult, ToolCallID: "call_1", Content: []traffic.Block{b}}}
		}
		carries := len(sig) > 0 || len(data) > 0 || len(enc) > 0
		if got := HasPayload(&m); got != carries {
			t.Fatalf("HasPayload = %t for a block with signature %q, data %q, encrypted content %q (nested %t)", got, sig, data, enc, nested)
		}
		for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireGemini, traffic.WireResponses} {
			with, without := NewHasher(w).Message(&m), NewHasher(w).WithoutPayloads().Message(&m)
			if !carries && with != without {
				t.Fatalf("%s: a message without payloads has fingerprint %x with payloads and %x without", w, with, without)
			}
		}
	})
}
