package anthropic

import "testing"

func TestAntModelFamily(t *testing.T) {
	for model, family := range map[string]string{
		"claude-sonnet-4-0":                          "claude-sonnet-4",
		"claude-sonnet-4-20250514":                   "claude-sonnet-4",
		"claude-sonnet-4-5-20250929":                 "claude-sonnet-4-5",
		"claude-3-7-sonnet-latest":                   "claude-3-7-sonnet",
		"us.anthropic.claude-opus-4-1-20250805-v1:0": "claude-opus-4-1",
		"claude-opus-4-1@20250805":                   "claude-opus-4-1",
	} {
		if got := antModelFamily(model); got != family {
			t.Errorf("antModelFamily(%q) = %q, want %q", model, got, family)
		}
	}
}
