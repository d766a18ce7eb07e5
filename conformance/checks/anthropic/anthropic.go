package anthropic

import (
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// The Anthropic Messages family (docs/provider-rules.md §1.5, §1.6 and §7): signed
// thinking echoed unchanged and in place, tool calls answered in the next
// message, cancelled and cut-off calls closed out, messages well formed and
// credentials redacted. The cross-turn checks share one walk over the
// traffic (checks_anthropic_index.go) that ties every echoed block to the
// response that produced it. A message that an earlier accepted request
// already sent in the same context (model, thinking configuration, system,
// tools, history before it) is not judged again: the provider took it, and a fault in history is
// reported once, at the request that introduced it, not at every turn.
var checks = []*check.Check{
	declare(&check.Check{
		ID: "ANT-THINK-001", Title: "Echoed thinking unchanged", Severity: check.SeverityError, Scope: "R,C",
		Law:           "A thinking or redacted_thinking block echoed in a later request has the same type, thinking text, signature and data as the block the response produced.",
		ProviderError: "messages.N.content.M: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.",
		Troubleshoot: "The signature covers the thinking text, so any edit is caught: trimming or re-wrapping the text, re-encoding the signature (URL-safe base64, re-quoting), rebuilding the block from a summary, or a proxy that converts between providers and back. " +
			"Store the block exactly as the response produced it (for a stream: the concatenated thinking_delta text and signature_delta) and send those bytes back. " +
			"The echo is tied to its origin by signature, else by thinking text, else by its place in the message that echoes a recorded response; the finding names the interaction that produced the original and shows the first differing byte. A block moved, reordered or left out is ANT-THINK-010's.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#19539", "anthropics/claude-code#63404", "vybestack/llxprt-code#1653", "docs/provider-rules.md A1"}},
		Judge:    judgeThinkingUnchanged,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-002", Title: "Thinking blocks carry their payload", Severity: check.SeverityError, Scope: "R",
		Law:           "Every thinking block in a request has a non-empty signature and every redacted_thinking block has non-empty data.",
		ProviderError: "messages.N.content.M.thinking.signature: Field required",
		Troubleshoot: "A missing signature usually comes from a client that keeps only the thinking text (OpenAI-compatible adapters, chat UIs storing reasoning as plain text), or from a stream whose signature_delta never arrived because it was cut off. " +
			"Keep the signature with the block, and drop a thinking block that has none rather than sending it.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"JohnnyZ93/oai-compatible-copilot#217", "justlovemaki/AIClient2API#437", "docs/provider-rules.md A2"}},
		Judge:    judgeThinkingCarriesPayload,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-003", Title: "Thinking payloads come from this provider", Severity: check.SeverityError, Scope: "R",
		Law:           "A signature or redacted data sent back was produced by an Anthropic response on the same platform: not synthesized, not another provider's token.",
		ProviderError: "messages.N.content.M: Invalid `signature` in `thinking` block",
		Troubleshoot: "Seen in the wild: gateways that turn Gemini or OpenAI reasoning into Anthropic thinking blocks (with a dummy such as skip_thought_signature_validator or a gAAAAA… encrypted_content as signature), harnesses that synthesize a thinking block to satisfy the thinking-first rule, and histories moved between Amazon Bedrock, Vertex AI and the Anthropic API. " +
			"Only echo blocks the same platform produced; drop the others. " +
			"How llmtck decides: a payload equal to one a recorded response produced is genuine (another platform is an error, another model family a warning, since such blocks are dropped); one equal to another wire's payload is cross-provider; otherwise, when the message recognisably echoes a recorded response (a shared signature, thinking text, tool_use id or text block) the block is synthesized if no such block was produced, and foreign when its token is not Anthropic-shaped. " +
			"A message with no recorded origin is client-authored history from elsewhere and is not judged.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#10627", "ding113/claude-code-hub#518", "code-yeongyu/oh-my-openagent#2775 (synthesized blocks)", "docs/provider-rules.md A2, A12"}},
		Judge:    judgeThinkingFromThisProvider,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-004", Title: "Tool loop opens with thinking", Severity: check.SeverityError, Scope: "R",
		Law:           "With thinking on, a request that continues a tool loop has the assistant message that opened the loop start with a thinking or redacted_thinking block.",
		ProviderError: "messages.N.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.",
		Troubleshoot: "Typical causes: the harness stores assistant messages without their thinking blocks (only text and tool calls), enables thinking in the middle of a tool loop, or merges messages so a text block comes first. " +
			"Keep the thinking blocks of the current tool loop and send them back first; change the thinking configuration only when a new user turn starts. " +
			"With adaptive thinking the model may answer without thinking, so the check fires only when the response that opened the loop did start with thinking.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Models: "thinking enabled", Sources: []string{"n8n-io/n8n#22550", "anomalyco/opencode#3077 (Bedrock)", "router-for-me/CLIProxyAPI#1109", "docs/provider-rules.md A3"}},
		Judge:    judgeToolLoopOpensWithThinking,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-005", Title: "Thinking comes first, never last", Severity: check.SeverityError, Scope: "R",
		Law:           "An assistant message that contains thinking starts with a thinking or redacted_thinking block, and a final (prefill) assistant message does not end with one.",
		ProviderError: "messages.N.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.",
		Troubleshoot: "Blocks get reordered when a harness rebuilds a message from separate lists (text first, then reasoning, then tool calls) or when a UI-oriented store sorts parts by type. " +
			"Keep content blocks in the order the response produced them. A prefill that ends in thinking is rejected with `messages.N: The final block in an assistant message cannot be thinking.`: continue after a complete block instead.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Models: "thinking enabled", Sources: []string{"anthropics/claude-code#20705", "tailcallhq/forgecode#2107", "docs/provider-rules.md A3, A4"}},
		Judge:    judgeThinkingFirstNeverLast,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-006", Title: "No thinking in the final message when thinking is off", Severity: check.SeverityError, Scope: "R",
		Law:           "With thinking disabled or absent, an assistant message in the final position has no thinking or redacted_thinking block.",
		ProviderError: "messages.N.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.",
		Troubleshoot: "This happens when a pause_turn continuation or a prefill is resent without the thinking configuration of the request that produced it (a retry path or a sub-agent that builds its own request). " +
			"Send the same thinking configuration as the request that produced the message, or strip the thinking blocks of the final message.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"tailcallhq/forgecode#1853", "docs/provider-rules.md A4"}},
		Judge:    judgeNoThinkingWhenOff,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-007", Title: "One thinking configuration per tool loop", Severity: check.SeverityInfo, Scope: "R,C",
		Law: "Every request of one tool loop sends the same thinking configuration as the request whose tool calls it answers.",
		Troubleshoot: "Anthropic documents that thinking should stay fixed for a whole tool loop and change only between user turns; a change mid-loop is rejected or makes the model drop its earlier reasoning (the exact error text was not captured). " +
			"Harnesses usually cause it by computing the budget from the remaining context on every step. Decide the configuration when the user turn starts and keep it until the final answer.",
		Judge: judgeOneThinkingConfigPerLoop,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-008", Title: "No forced tool use with manual thinking", Severity: check.SeverityError, Scope: "R",
		Law:           "A request with thinking.type \"enabled\" does not set tool_choice to \"any\" or \"tool\".",
		ProviderError: "Thinking may not be enabled when tool_choice forces tool use.",
		Troubleshoot: "Structured-output helpers often force a tool (tool_choice {\"type\":\"tool\"}) while the agent's default enables thinking. " +
			"Use tool_choice auto (or none) with thinking, or disable thinking for the forced call. Adaptive thinking allows forced tool use on some models, so it is not judged here.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Models: "manual thinking (type \"enabled\"); adaptive thinking allows forced tool use on some models", Sources: []string{"mastra-ai/mastra#7507", "can1357/oh-my-pi#341", "docs/provider-rules.md A5"}},
		Judge:    judgeNoForcedToolWithThinking,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-009", Title: "Echoed thinking keeps its prefix", Severity: check.SeverityWarning, Scope: "R",
		Law:           "For each echoed thinking block, the system prompt, the tools and every earlier message equal those of the request that produced it, cache_control markers aside.",
		ProviderError: "messages.N.content.M: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\". … The `system` prompt differs from the one this block was created with.",
		Troubleshoot: "On preserved-thinking models a signature binds the block to everything before it. Edits that break it: a date or token count in the system prompt, tools added or re-described mid-conversation, an ephemeral reminder removed from an earlier message, a compaction that rewrote earlier turns. " +
			"Make history append-only: put changing context in a new trailing message. " +
			"Older models ignore the prefix and the newest drop the block silently unless thinking.block_binding.prefix_mismatch_behavior is \"error\", so the finding is a warning, raised to an error when the request asks for errors or the provider rejected it for its signature. The first broken block is shown with a diff (-want +got).",
		Judge: judgeThinkingKeepsPrefix,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-010", Title: "Echoed thinking in place", Severity: check.SeverityError, Scope: "R",
		Law:           "Echoed thinking blocks keep their position and order, and none between them is left out, including thinking blocks with empty text.",
		ProviderError: "messages.N.content.M: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.",
		Troubleshoot: "Blocks move when a harness filters redacted_thinking or empty-text thinking blocks (display \"omitted\" still returns a signed block that must be echoed), rebuilds a message with text first, or merges two responses into one message. " +
			"In the latest assistant message this is rejected; in earlier messages older models strip the blocks while preserved-thinking models reject or drop them, so findings there are warnings. Echo every block of every response, in order.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Models: "models with preserved thinking", Sources: []string{"Anthropic docs: preserved-thinking, prefix-checks", "docs/provider-rules.md A12"}},
		Judge:    judgeThinkingInPlace,
	}),
	declare(&check.Check{
		ID: "ANT-THINK-011", Title: "Valid thinking configuration", Severity: check.SeverityInfo, Scope: "C",
		Law: "thinking.type is enabled, adaptive or disabled; an enabled budget_tokens is at least 1024 and below max_tokens, unless the interleaved-thinking beta is on.",
		Troubleshoot: "budget_tokens counts toward max_tokens, so a budget at or above max_tokens leaves no room for the answer; with anthropic-beta interleaved-thinking-2025-05-14 the budget spans the whole turn and may exceed max_tokens. " +
			"Manual thinking (type enabled) is deprecated on Claude 4.6 models and rejected from 4.7 on: use {\"type\":\"adaptive\"} there.",
		Judge: judgeThinkingConfig,
	}),
	declare(&check.Check{
		ID: "ANT-TOOL-001", Title: "Every tool_use answered next", Severity: check.SeverityError, Scope: "R,C",
		Law:           "Each tool_use id of an assistant message has a tool_result in the very next message, which is a user message.",
		ProviderError: "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
		Troubleshoot: "Typical causes: the user interrupted a tool call and the harness stored the call but not a result; a parallel call's result was lost; a reminder or user message was inserted between the call and its results; compaction cut between them. " +
			"Always answer every tool_use, with is_error:true and an explanation when it was cancelled or denied.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#1237", "anthropics/claude-code#5989", "anthropics/claude-code#2697", "docs/provider-rules.md A6"}},
		Judge:    judgeToolUseAnswered,
	}),
	declare(&check.Check{
		ID: "ANT-TOOL-002", Title: "Every tool_result has its tool_use", Severity: check.SeverityError, Scope: "R,C",
		Law:           "Each tool_result's tool_use_id names a tool_use of the immediately preceding assistant message.",
		ProviderError: "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
		Troubleshoot: "Usually compaction or a sliding window dropped the assistant message with the tool_use but kept its result, or a stream aborted before the tool_use was persisted. " +
			"Trim history only at turn boundaries, and drop a tool_result together with its call.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#13460", "router-for-me/CLIProxyAPI#497", "docs/provider-rules.md A7"}},
		Judge:    judgeToolResultHasUse,
	}),
	declare(&check.Check{
		ID: "ANT-TOOL-003", Title: "tool_result blocks come first", Severity: check.SeverityError, Scope: "R",
		Law:           "In a user message, every tool_result block comes before any other block.",
		ProviderError: "messages.N: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
		Troubleshoot:  "Harnesses that prepend a reminder, an image or the user's interjection to the results message cause this. Put tool_result blocks first and any other content after them.",
		Evidence:      check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#37", "anthropics/anthropic-sdk-typescript#653", "docs/provider-rules.md A8"}},
		Judge:         judgeToolResultsFirst,
	}),
	declare(&check.Check{
		ID: "ANT-TOOL-004", Title: "tool_use ids well formed and unique", Severity: check.SeverityError, Scope: "R",
		Law:           "Every tool_use id matches ^[a-zA-Z0-9_-]+$ (server tools: ^srvtoolu_[a-zA-Z0-9_]+$), and no id repeats in one conversation.",
		ProviderError: "messages.N.content.M.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
		Troubleshoot: "Ids from other providers break the pattern when a history is carried across (Kimi's functions.name:0, ids with dots, colons or pipes). Map foreign ids to a conforming one, consistently in the call and its result. " +
			"A repeated id is a warning sign of a client that numbers calls itself; it is reported as info.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"RooCodeInc/Roo-Code#10649", "BlockRunAI/ClawRouter#17", "docs/provider-rules.md A9"}},
		Judge:    judgeToolUseIDs,
	}),
	declare(&check.Check{
		ID: "ANT-TOOL-005", Title: "Echoed tool input unchanged", Severity: check.SeverityWarning, Scope: "R,C",
		Law:          "An echoed tool_use has the name and raw input JSON the response produced (whitespace aside; other string escapes only are an info).",
		Troubleshoot: "Decoding input into a map and encoding it again (map[string]any in Go, a dict through a JSON store) reorders keys and can change numbers (float64) and escapes. The API accepts it, so this is a warning: the model reads a call it did not write, the prompt cache breaks at that message, and a history re-encoded only after a reload (a JSON-file store) changes the prefix of every later thinking block, which the preserved-thinking models refuse (ANT-THINK-009). Keep the input as raw bytes (json.RawMessage) from the response to the next request.",
		Judge:        judgeToolInputUnchanged,
	}),
	declare(&check.Check{
		ID: "ANT-CANCEL-001", Title: "Cancelled tools still answered", Severity: check.SeverityError, Scope: "R",
		Law:           "A cancelled or denied tool call still gets a tool_result (error) and that result has is_error:true and a non-empty explanation (info).",
		ProviderError: "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
		Troubleshoot: "When the user interrupts a tool call, answer it anyway: a tool_result with is_error:true and text such as \"Cancelled by user before execution; no side effects.\", first in the next user message, followed by the user's text. " +
			"A missing result is rejected (error); a result without is_error or without an explanation leaves the model guessing whether the tool ran (info).",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#1237", "anthropics/claude-code#5989", "docs/provider-rules.md A6, §1.6"}},
		Judge:    judgeCancelledAnswered,
	}),
	declare(&check.Check{
		ID: "ANT-CANCEL-002", Title: "Nothing cut off is persisted", Severity: check.SeverityError, Scope: "R,C",
		Law:           "After a stream was cut off, later requests carry none of its unfinished blocks: no thinking without its signature, no tool_use whose input never completed; its half-written text kept without telling the model it was interrupted is a warning.",
		ProviderError: "messages.N.content.M.thinking.signature: Field required",
		Troubleshoot: "A stream that ends early (client cancel, error event, dropped connection) leaves a partial message. A thinking block without its signature_delta cannot be echoed, and a tool_use whose input_json_delta stopped midway must not be executed. " +
			"The safe rule is to discard the partial message entirely; if complete blocks are kept, every kept tool_use needs a tool_result. " +
			"Text the user stopped is accepted by the API, but kept as it is the model reads a half answer as one it finished: drop it, or follow it with a user message that says it was interrupted (Claude Code sends \"[Request interrupted by user]\"), which makes the finding an info.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"JohnnyZ93/oai-compatible-copilot#217 (thinking.signature: Field required)", "decocms/studio#1803 (stream aborted before the tool_use was persisted)", "docs/provider-rules.md §1.6"}},
		Judge:    judgeNothingCutOffPersisted,
	}),
	declare(&check.Check{
		ID: "ANT-MSG-001", Title: "No empty content", Severity: check.SeverityError, Scope: "R",
		Law:           "Every message has non-empty content, no text block is empty, and no message holds only whitespace text; a final assistant message may be empty.",
		ProviderError: "messages.N: all messages must have non-empty content except for the optional final assistant message",
		Troubleshoot: "Empty messages come from a turn whose only content was filtered out (thinking stripped, tool calls moved elsewhere) or from an empty user input; blank text blocks from streaming accumulators that start a block and never fill it. " +
			"Drop empty blocks and messages before sending. The text-block variants read `messages: text content blocks must be non-empty` (an empty text block, anywhere) and `messages: text content blocks must contain non-whitespace text` (a message whose only text is whitespace). " +
			"A whitespace-only text block beside other content (more text, a tool_use) is accepted, so it is not reported.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#6774 (empty message)", "anthropics/claude-code#23369, #23440 (whitespace-only text, direct API)", "LibreChat-AI/agents#124 (shapes tried on the API: whitespace beside other text accepted)", "NousResearch/hermes-agent#55092 (Bedrock)"}},
		Judge:    judgeNoEmptyContent,
	}),
	declare(&check.Check{
		ID: "ANT-MSG-002", Title: "Roles alternate", Severity: check.SeverityInfo, Scope: "R",
		Law:           "Consecutive messages do not share a role (the API combines them into one turn; an error only where the recorded response refused it).",
		ProviderError: "messages: roles must alternate between \"user\" and \"assistant\", but found multiple \"user\" roles in a row",
		Troubleshoot: "The Messages API combines consecutive user or assistant turns into a single turn (Anthropic's API reference for `messages`; Amazon Bedrock's InvokeModel answered 200 to such a request), so this is info. " +
			"Older API versions and some gateways refused them, and merging changes what later thinking blocks were produced after: append extra user content as blocks of the same message instead. " +
			"Bedrock Converse refuses them (BDR-MSG-001).",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/anthropic-sdk-python src/anthropic/types/message_create_params.py (`messages`: consecutive turns are combined)", "FlowiseAI/Flowise#2006 (the old refusal)"}},
		Judge:    judgeRolesAlternate,
	}),
	declare(&check.Check{
		ID: "ANT-HDR-001", Title: "Version header kept", Severity: check.SeverityInfo, Scope: "R,C",
		Recording: true, // a fact about what was recorded, counted over the recording
		Law:       "A recorded Anthropic request carries anthropic-version.",
		Troubleshoot: "anthropic-version is required by the API and replay matching needs it, so a recorder should keep it; recorders that keep only an allow-list of headers drop it. " +
			"Credentials in the recording are XP-SECRET-001's (until 0.2.0 this check also reported them).",
		Judge: judgeVersionHeaderKept,
	}),
}

// declare fills what every check of the family shares.
func declare(c *check.Check) *check.Check {
	c.Wire, c.Since = traffic.WireAnthropic, "0.1.0"
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return append(slices.Clone(checks), ephemeralChecks...) }
