package anthropic

import "strings"

// prefixCheckedModels are the models that run the prefix check of
// preserved thinking, as Anthropic's documentation lists them (build with
// Claude, preserved thinking, prefix checks). Claude Mythos 5.1 records the
// binding but does not check it; older models (claude-sonnet-4-5 …)
// accept a changed prefix.
var prefixCheckedModels = []string{"claude-fable-5-1", "claude-fable-5-2", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"}

// PrefixChecked reports whether model runs the prefix check, by its family
// (dated and provider-prefixed ids included: us.anthropic.claude-fable-5-1-…).
func PrefixChecked(model string) bool {
	for _, m := range prefixCheckedModels {
		if strings.Contains(model, m) {
			return true
		}
	}
	return false
}
