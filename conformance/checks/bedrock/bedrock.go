// Package bedrock is the Amazon Bedrock Converse check family (BDR-*):
// what Converse refuses with a ValidationException — roles that do not
// alternate, blank text, tool calls left unanswered, history with tool
// blocks but no toolConfig, and reasoning (Claude's signed thinking)
// echoed altered, unsigned, dropped from a tool loop or put in a user
// message.
package bedrock

import (
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// BedrockEndpoints: Converse is Bedrock's own API; a recording of it is
// judged where it was made.
var endpoints = []traffic.Dialect{traffic.DialectDirect}

var checks = []*check.Check{
	declare(&check.Check{
		ID: "BDR-MSG-001", Title: "Roles alternate, starting with user", Severity: check.SeverityError, Scope: "R",
		Law:           "The messages of a Converse request start with a user message and alternate between user and assistant.",
		ProviderError: "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
		Troubleshoot: "Bedrock refuses two consecutive messages of one role, where the Anthropic API merges them. It comes from tool results sent as their own user message after another user message, an assistant reply stored twice, or a feedback message appended as a second user turn. " +
			"Merge consecutive same-role messages into one (tool results first, then text), or put the extra text into the toolResult content.",
		Evidence: check.Evidence{Endpoints: endpoints, Sources: []string{"langchain-ai/langchain-aws#130", "microsoft/semantic-kernel#10281", "Portkey-AI/gateway#748"}},
		Judge:    judgeRolesAlternate,
	}),
	declare(&check.Check{
		ID: "BDR-MSG-002", Title: "No blank text blocks", Severity: check.SeverityError, Scope: "R",
		Law:           "Every text block of a message holds at least one character that is not whitespace.",
		ProviderError: "The text field in the ContentBlock object at messages.N.content.M is blank. Add text to the text field, and try again.",
		Troubleshoot: "Blank text comes from an assistant turn that held only tool calls and was stored with an empty text part, from a stream's empty first text delta, or from a placeholder the client writes before the answer arrives. " +
			"Drop empty and whitespace-only text blocks before sending; a message that would be left with no block needs its turn removed or a real text.",
		Evidence: check.Evidence{Endpoints: endpoints, Sources: []string{"continuedev/continue#9767", "LibreChat-AI/agents#124"}},
		Judge:    judgeNoBlankText,
	}),
	declare(&check.Check{
		ID: "BDR-TOOL-001", Title: "Every toolUse answered in the next message", Severity: check.SeverityError, Scope: "R",
		Law:           "Each toolUse of an assistant message is answered by a toolResult with its toolUseId in the user message right after it, and every toolResult answers a toolUse of the message before.",
		ProviderError: "Expected toolResult blocks at messages.N.content for the following Ids: tooluse_…",
		Troubleshoot: "A call left without its result comes from a cancelled or failed tool whose result was never written, parallel calls answered one per message, or results reordered into a later message. " +
			"Answer every call of the turn in the one next user message, with status \"error\" and a short explanation for a call that did not run.",
		Evidence: check.Evidence{Endpoints: endpoints, Sources: []string{"agno-agi/agno#6698", "gethnet/litellm-connector-copilot#100"}},
		Judge:    judgeToolUseAnswered,
	}),
	declare(&check.Check{
		ID: "BDR-TOOL-002", Title: "toolConfig with tool history", Severity: check.SeverityError, Scope: "R",
		Law:           "A request whose messages hold toolUse or toolResult blocks defines toolConfig.",
		ProviderError: "The toolConfig field must be defined when using toolUse and toolResult content blocks.",
		Troubleshoot: "It happens on calls made without tools over a history that used them: a summary or compaction call, a title request, the last call of an agent that drops its tools. " +
			"Send the same toolConfig as the conversation's other calls (toolChoice can keep the model from calling), or flatten the tool blocks of the history into text for that call.",
		Evidence: check.Evidence{Endpoints: endpoints, Sources: []string{"langgenius/dify#17545", "vxcontrol/pentagi#196", "onyx-dot-app/onyx#7842"}},
		Judge:    judgeToolConfigWithHistory,
	}),
	declare(&check.Check{
		ID: "BDR-TOOL-003", Title: "Error results explain themselves", Severity: check.SeverityError, Scope: "R",
		Law:           "A toolResult with status \"error\" has non-empty content.",
		ProviderError: "The content field at messages.N.content.M.toolResult cannot be empty when status value is error.",
		Troubleshoot:  "A failed or cancelled tool is often reported with its status only. Put the reason in the content ({\"text\": \"cancelled by the user\"}): the model needs it, and Bedrock refuses the request without it, on every later turn that carries the result.",
		Evidence:      check.Evidence{Endpoints: endpoints, Sources: []string{"aws-samples/sample-multi-agent-orchestration-chat-on-agentcore#15"}},
		Judge:         judgeErrorResultsExplained,
	}),
	declare(&check.Check{
		ID: "BDR-THINK-001", Title: "Echoed reasoning unchanged", Severity: check.SeverityError, Scope: "R,C",
		Law:           "A reasoningContent block echoed in a later request has the text, signature and redactedContent the response produced, byte for byte.",
		ProviderError: "The model returned the following errors: messages.N.content.M: Invalid `signature` in `thinking` block",
		Troubleshoot: "Claude's signature covers the reasoning text. Trimming the text, re-encoding the signature, or rebuilding the block from another provider's reasoning is refused. " +
			"Store reasoningText.text, reasoningText.signature and redactedContent exactly as the response (or the concatenated stream deltas) gave them.",
		Evidence: check.Evidence{Endpoints: endpoints, Models: "Anthropic Claude with thinking", Sources: []string{"maximhq/bifrost#6942", "anthropics/claude-code#19539 (the same rule on the Anthropic API)"}},
		Judge:    judgeReasoningUnchanged,
	}),
	declare(&check.Check{
		ID: "BDR-THINK-002", Title: "Claude reasoning echoed with its signature", Severity: check.SeverityError, Scope: "R",
		Law:           "On Claude models, a reasoningText block sent back carries its signature.",
		ProviderError: "The model returned the following errors: messages.N.content.M.thinking.signature: Field required",
		Troubleshoot: "Clients that keep reasoning as plain text (or merge stream deltas and lose the signature delta) send reasoningText without a signature. " +
			"Keep the signature delta with the block; drop a reasoning block that has none. Models that do not sign reasoning (DeepSeek R1) are not judged.",
		Evidence: check.Evidence{Endpoints: endpoints, Models: "Anthropic Claude", Sources: []string{"can1357/oh-my-pi#10486"}},
		Judge:    judgeClaudeReasoningSigned,
	}),
	declare(&check.Check{
		ID: "BDR-THINK-003", Title: "Reasoning only in assistant messages", Severity: check.SeverityError, Scope: "R",
		Law:           "reasoningContent blocks appear only in assistant messages.",
		ProviderError: "User messages cannot contain reasoning content",
		Troubleshoot:  "A converter that turns the model's reasoning into a user-side note, or merges messages across roles, moves reasoningContent into a user message. Keep it in the assistant message that produced it.",
		Evidence:      check.Evidence{Endpoints: endpoints, Sources: []string{"aws-samples/bedrock-chat#851"}},
		Judge:         judgeReasoningOnlyFromAssistant,
	}),
	declare(&check.Check{
		ID: "BDR-THINK-004", Title: "Tool loop keeps its reasoning", Severity: check.SeverityError, Scope: "R,C",
		Law:           "With Claude's thinking on, the assistant message that opened the current tool loop is echoed with the reasoning blocks (signed or redacted) its response started with, first.",
		ProviderError: "The model returned the following errors: messages.N.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block",
		Troubleshoot: "Histories that keep text and tool calls but drop reasoning (or drop redacted reasoning as unreadable) fail on the request that carries the tool results. " +
			"Keep every reasoningContent block of the turn, redactedContent included, in its place.",
		Evidence: check.Evidence{Endpoints: endpoints, Models: "Anthropic Claude with thinking", Sources: []string{"anomalyco/opencode#3077", "n8n-io/n8n#22550 (the same rule on the Anthropic API)"}},
		Judge:    judgeToolLoopKeepsReasoning,
	}),
}

func declare(c *check.Check) *check.Check {
	c.Wire, c.Since = traffic.WireBedrock, "0.2.0"
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return slices.Clone(checks) }

// claude reports whether a Bedrock model id names an Anthropic model
// ("anthropic.claude-…", "us.anthropic.claude-…", an ARN holding it).
func claude(model string) bool {
	m := strings.ToLower(model)
	return strings.Contains(m, "anthropic") || strings.Contains(m, "claude")
}

// requests calls fn for each Bedrock exchange with a decoded request.
func requests(tr *check.Traffic, fn func(i int, ex *traffic.Exchange, req *traffic.Request)) {
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire == traffic.WireBedrock && ex.Request != nil {
			fn(i, ex, ex.Request)
		}
	}
}
