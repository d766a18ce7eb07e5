package thread

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/engine"
)

// TestStartWorkedOutOnceIsTheHash: the fingerprints of a message that
// carries only its role, worked out once, are what hashing the message
// gives, and a message that carries more is hashed whole.
func TestStartWorkedOutOnceIsTheHash(t *testing.T) {
	roles := []engine.Role{engine.RoleUser, engine.RoleAssistant, engine.RoleSystem, engine.RoleDeveloper, engine.RoleTool, "model", ""}
	seen := map[uint64]engine.Role{}
	for _, w := range []engine.Wire{engine.WireAnthropic, engine.WireGemini} {
		for _, r := range roles {
			for _, m := range []engine.Message{
				{Role: r},
				{Role: r, WireType: "message"},
				{Role: r, Name: "alice"},
				{Role: r, Extra: map[string]json.RawMessage{"status": json.RawMessage(`"completed"`)}},
			} {
				got, want := NewHasher(w).Start(&m), NewHasher(w).start(&m)
				if got != want {
					t.Errorf("%s: Start of %+v = %x, hashing it gives %x", w, m, got, want)
				}
				if w == engine.WireAnthropic && m.WireType == "" && m.Name == "" && m.Extra == nil {
					if other, ok := seen[got]; ok {
						t.Errorf("roles %q and %q have one fingerprint", other, r)
					}
					seen[got] = r
				}
			}
		}
	}
}
