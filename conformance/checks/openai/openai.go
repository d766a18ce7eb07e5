package openai

import (
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// The OpenAI Chat Completions checks (docs/provider-rules.md §2.4–2.5): every tool call
// answered by a tool message before anything else, arguments echoed as
// received, and the reasoning text that DeepSeek and Moonshot require back.
var checks = []*check.Check{
	declare(&check.Check{
		ID: "OAI-TOOL-001", Title: "Every tool call answered by a tool message", Severity: check.SeverityError, Scope: "R,C",
		Law:           "An assistant message with tool_calls is followed, before any other user, system or assistant message, by one tool message per tool_call id.",
		ProviderError: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…",
		Troubleshoot: "Seen when a harness persists the assistant's tool calls but the run is interrupted before the tools answer, when a denied or cancelled call gets no tool message, when parallel calls are answered only in part, or when a user or system message is inserted between the calls and their results (sdcb/chats#132, BerriAI/litellm#10083; some compatible hosts say \"insufficient tool messages following tool_calls message\", agno-agi/agno#3105). " +
			"Answer every call, cancelled ones included, with a tool message right after the assistant message, and put any new user text after the tool messages.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"sdcb/chats#132", "BerriAI/litellm#10083", "agno-agi/agno#3105", "docs/provider-rules.md C1"}},
		Judge:    judgeCallsAnswered,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-002", Title: "Every tool message answers the preceding tool calls", Severity: check.SeverityError, Scope: "R",
		Law:           "A tool message's tool_call_id names one of the tool_calls of the assistant message it follows (only other tool messages in between).",
		ProviderError: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
		Troubleshoot: "An orphan tool message is what a history trimmer leaves when it cuts the window between an assistant message and its tool results, or what a converter produces when it drops assistant messages whose content is null (openai/openai-go#43, sdcb/chats#132). " +
			"Trim whole steps (the assistant message with its tool messages), keep assistant messages that only carry tool_calls, and keep tool_call ids unchanged.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"openai/openai-go#43", "sdcb/chats#132", "docs/provider-rules.md C2"}},
		Judge:    judgeResultsMatched,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-003", Title: "Tool-call arguments echoed as received", Severity: check.SeverityWarning, Scope: "R",
		Law: "An echoed tool call's arguments string equals the string the response produced for that call id; a difference in whitespace or string escapes only is an info.",
		Troubleshoot: "The API accepts re-serialised arguments, but re-encoding through a map reorders keys, changes number formats and escapes, so the model sees a history it did not write and prompt caching breaks at that point. " +
			"Store the arguments string exactly as received (a stream's fragments concatenated) and send it back unchanged; parse a copy when you run the tool.",
		Judge: judgeArgumentsEchoed,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-004", Title: "Cancelled tool calls answered with a reason", Severity: check.SeverityInfo, Scope: "R",
		Law: "A tool message says what happened to its call: it is never empty, and a call from a response whose stream was cut off is answered as cancelled.",
		Troubleshoot: "Chat tool messages have no error flag, so the text is all the model learns: an empty result reads as a successful call that returned nothing. " +
			"When the user cancels, a permission is denied or the stream was interrupted, send a tool message such as \"Cancelled by the user; the tool was not run.\" " +
			"A tool call from a stream that never finished may have incomplete arguments: prefer dropping the partial assistant message altogether.",
		Judge: judgeCancelledAnswered,
	}),
	declare(&check.Check{
		ID: "OAI-COMPAT-001", Title: "DeepSeek and Moonshot reasoning echoed on tool-call turns", Severity: check.SeverityError, Scope: "R",
		Law:           "On DeepSeek and Moonshot (by host, or by model name behind a gateway), an assistant tool-call message of the current tool loop carries back the reasoning_content its response produced.",
		ProviderError: "The content[].thinking in the thinking mode must be passed back to the API. / thinking is enabled but reasoning_content is missing in assistant tool call message at index N",
		Troubleshoot: "OpenAI's own Chat Completions returns no reasoning text, so OpenAI-shaped clients drop the non-standard reasoning_content field when they store the assistant message (iOfficeAI/AionUi#2746). " +
			"In thinking mode these hosts need it back on every assistant message that made tool calls since the last user message; keep the field with the message. " +
			"Only calls whose recorded response carried reasoning_content are judged; older turns are not, since the hosts ignore or drop earlier reasoning there.",
		Evidence: check.Evidence{Endpoints: []traffic.Dialect{traffic.DialectDeepSeek, traffic.DialectMoonshot}, Models: "DeepSeek and Moonshot thinking models", Sources: []string{"iOfficeAI/AionUi#2746", "DeepSeek docs: thinking mode and tool calls", "docs/provider-rules.md §2.2"}},
		Judge:    judgeReasoningContentEchoed,
	}),
	declare(&check.Check{
		ID: "OAI-COMPAT-002", Title: "OpenRouter reasoning_details echoed unchanged", Severity: check.SeverityError, Scope: "R,C",
		Law:           "On OpenRouter, an assistant message that echoes a response's tool calls carries back that response's reasoning_details, each signature (reasoning.text) and data (reasoning.encrypted) unchanged.",
		ProviderError: "Invalid `signature` in `thinking` block (relayed from Anthropic)",
		Troubleshoot: "OpenRouter turns the reasoning of Anthropic, Gemini and OpenAI models into reasoning_details and passes it back to them only if the client sends the whole list again on the assistant message. " +
			"Clients that keep only the plain reasoning text, or rebuild the list from it, lose the signatures: the model loses its reasoning in the tool loop (a warning here), and an altered signature is refused by the model's provider (an error). " +
			"Store reasoning_details as the response gave it (for a stream, the entries merged by index) and send it back unchanged.",
		Evidence: check.Evidence{Endpoints: []traffic.Dialect{traffic.DialectOpenRouter}, Models: "reasoning models behind OpenRouter (Anthropic, Gemini, OpenAI)", Sources: []string{"OpenRouter docs: reasoning tokens, preserving reasoning blocks", "RooCodeInc/Roo-Code#9506", "cline/cline#7551"}},
		Judge:    judgeReasoningDetailsUnchanged,
	}),
	declare(&check.Check{
		ID: "OAI-COMPAT-003", Title: "No forced tool_choice in DeepSeek thinking mode", Severity: check.SeverityError, Scope: "R",
		Law:           "On DeepSeek with thinking on (thinking.type enabled, or a reasoner model), tool_choice is auto or none: not required, and not a named function.",
		ProviderError: "Thinking mode does not support this tool_choice",
		Troubleshoot: "Agent frameworks force a tool call (tool_choice required, or the structured-output tool by name) to get a typed answer; DeepSeek's thinking mode refuses both. " +
			"Use tool_choice auto with an instruction, or turn thinking off for the call that must use the tool.",
		Evidence: check.Evidence{Endpoints: []traffic.Dialect{traffic.DialectDeepSeek}, Models: "DeepSeek thinking mode (deepseek-reasoner, V3.2 and V4 with thinking enabled)", Sources: []string{"0xPlaygrounds/rig tests/cassettes/deepseek/wire_shape_matrix (recorded 400)", "DeepSeek docs: thinking mode"}},
		Judge:    judgeNoForcedToolChoice,
	}),
}

// declare fills the fields every Chat Completions check shares.
func declare(c *check.Check) *check.Check {
	c.Wire, c.Since = traffic.WireOpenAI, "0.1.0"
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return slices.Clone(checks) }
