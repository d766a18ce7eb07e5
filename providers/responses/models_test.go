package responses

import "testing"

func TestReasonsAndFamily(t *testing.T) {
	for _, c := range []struct {
		model   string
		reasons bool
		family  string
	}{
		{"gpt-5", true, "gpt-5"},
		{"gpt-5.4-mini-2026-03-01", true, "gpt-5.4"},
		{"gpt-5-codex", true, "gpt-5"},
		{"o4-mini", true, "o4"},
		{"o3", true, "o3"},
		{"gpt-4.1", false, "gpt-4.1"},
		{"gpt-4o-mini", false, "gpt-4o"},
		{"openai/gpt-4.1-2025-04-14", false, "gpt-4.1"},
		{"chatgpt-4o-latest", false, "chatgpt-4o"},
		{"computer-use-preview", true, "computer"},
		{"some-new-model", true, "some"},
	} {
		if got := Reasons(c.model); got != c.reasons {
			t.Errorf("Reasons(%q) = %v, want %v", c.model, got, c.reasons)
		}
		if got := Family(c.model); got != c.family {
			t.Errorf("Family(%q) = %q, want %q", c.model, got, c.family)
		}
	}
}
