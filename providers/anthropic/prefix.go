package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

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

// PrefixMismatchBehavior is the request's
// thinking.block_binding.prefix_mismatch_behavior ("error", "drop_block"),
// or "" when it sets none.
func PrefixMismatchBehavior(req *traffic.Request) string {
	if req.Thinking == nil || len(req.Thinking.Raw) == 0 {
		return ""
	}
	var t struct {
		BlockBinding struct {
			PrefixMismatchBehavior string `json:"prefix_mismatch_behavior"`
		} `json:"block_binding"`
	}
	if json.Unmarshal(req.Thinking.Raw, &t) != nil {
		return ""
	}
	return t.BlockBinding.PrefixMismatchBehavior
}
