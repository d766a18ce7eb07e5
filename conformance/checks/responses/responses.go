package responses

import (
	"net/http"
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// The OpenAI Responses checks (docs/provider-rules.md §3.3–3.4): reasoning items and the
// items they produced travel together, encrypted reasoning is echoed byte
// for byte, and every function call is paired with its output.
var checks = []*check.Check{
	declare(&check.Check{
		ID: "OAI-RSN-001", Title: "Reasoning item followed by the item it produced", Severity: check.SeverityError, Scope: "R",
		Law:           "Every reasoning item in input is immediately followed by the item it produced (the message or function_call that came right after it in the response), as it was in the output.",
		ProviderError: "Item 'rs_…' of type 'reasoning' was provided without its required following item.",
		Troubleshoot: "The API replays a reasoning item only together with its follower, which it recognises by the follower's item id; a function_call sent without an id is taken as the call the reasoning produced, whatever its call_id. " +
			"The usual causes are a history editor that rewrote or dropped the assistant message after the reasoning (pydantic-ai's modified-history test sends the reasoning item followed by a hand-written assistant message without an id, and gets this 400), " +
			"a converter that turns output messages into easy-input {role, content} messages and so loses their msg_ id (vercel/ai#7099, openai-node#1567), " +
			"or a filter that keeps reasoning but drops or reorders the next item (continuedev/continue#8933). " +
			"Echo output items as they came, ids included, in output order; if you must change the answer text, drop the reasoning item too.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Models: "reasoning models", Sources: []string{"continuedev/continue#8933", "openai/openai-node#1567", "vercel/ai#7099", "pydantic-ai's test_openai_responses_thinking_with_modified_history (400)", "rig's xAI recording (a function call echoed without its fc_ id after reasoning: 200)", "OpenAI: a function call without id whose call_id is the produced fc_ id, after reasoning: 200 (issue 44)", "docs/provider-rules.md R1"}},
		Judge:    judgeReasoningFollowed,
	}),
	declare(&check.Check{
		ID: "OAI-RSN-002", Title: "Function call sent with its reasoning item", Severity: check.SeverityError, Scope: "R",
		Law:           "A function_call that carries the fc_ id of a call produced after a reasoning item is sent together with that reasoning item.",
		ProviderError: "Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
		Troubleshoot: "Harnesses that drop reasoning items (to save tokens, after switching models, or because they never stored them) but keep the function_call's server id trigger this (cline/cline#12242, mastra-ai/mastra#8738). " +
			"Either send the reasoning item (with its encrypted_content when store is false) before the call, or remove the fc_ id from the function_call so the API treats it as client-authored (continuedev/continue#11785). " +
			"Requests chained with previous_response_id are not judged: the server holds the reasoning.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Models: "reasoning models", Sources: []string{"cline/cline#12242", "continuedev/continue#11785", "docs/provider-rules.md R2"}},
		Judge:    judgeCallWithReasoning,
	}),
	declare(&check.Check{
		ID: "OAI-RSN-003", Title: "Stateless reasoning carries encrypted_content", Severity: check.SeverityError, Scope: "R",
		Law:            "With store:false every reasoning item in input carries its encrypted_content, and the request includes \"reasoning.encrypted_content\".",
		ProviderError:  "Item with id 'rs_…' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
		ProviderStatus: http.StatusNotFound, // an item the server never kept is "not found"
		Troubleshoot: "With store:false nothing is kept server-side, so an id-only reasoning item cannot be looked up and the API answers 404 (can1357/oh-my-pi#41, anomalyco/opencode#7724). " +
			"Keep the encrypted_content you received in response.output_item.done and send it back with the item, or set store:true. " +
			"A store:false request that uses reasoning without include [\"reasoning.encrypted_content\"] is a warning, not an error: current models return the payload by default, older behaviour left reasoning items without it, so the next stateless turn could not replay them.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Models: "store:false", Sources: []string{"can1357/oh-my-pi#41", "anomalyco/opencode#7724", "docs/provider-rules.md R3"}},
		Judge:    judgeStatelessEncrypted,
	}),
	declare(&check.Check{
		ID: "OAI-RSN-004", Title: "Encrypted reasoning echoed byte-exact", Severity: check.SeverityError, Scope: "R,C",
		Law:           "The encrypted_content of an echoed reasoning item equals, byte for byte, the one in the response.output_item.done (or output item) that produced it, and goes back to the organization and host that issued it.",
		ProviderError: "The encrypted content gAAA...Rg== could not be verified. / The encrypted content for item cmp_… could not be verified. Reason: Encrypted content could not be decrypted or parsed.",
		Troubleshoot: "The payload is signed and bound to the organization that issued it (error code invalid_encrypted_content, openai/codex#8132, #35334). " +
			"It breaks when a store or proxy re-encodes it (base64 round trips, trimming, string escaping), when it is taken from response.output_item.added or from an unfinished stream instead of output_item.done, " +
			"or when a conversation is replayed to another organization, project or gateway (Wei-Shaw/sub2api#2863). " +
			"Keep the JSON string as received and send it back unchanged to the same account.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"openai/codex#8132", "openai/codex#35334", "Wei-Shaw/sub2api#2863", "docs/provider-rules.md R4"}},
		Judge:    judgeEncryptedUnchanged,
	}),
	declare(&check.Check{
		ID: "OAI-RSN-005", Title: "Reasoning goes back only to a model that reads it", Severity: check.SeverityError, Scope: "R", Since: "0.2.0",
		Law:           "A request to a model that does not reason (gpt-4.1, gpt-4o, gpt-3.5…) carries no reasoning item; encrypted reasoning minted by one model family and sent to another is a warning.",
		ProviderError: "Reasoning input items can only be provided to a reasoning or computer use model. Remove reasoning items from your input and try again.",
		Troubleshoot: "After a model switch mid-conversation (a handoff to a cheaper model, a user's /model), the history still holds the previous model's reasoning items. " +
			"A model that does not reason refuses them (openai/openai-agents-python#569; its remove_all_reasoning handoff filter, #2602), and another family cannot decrypt the payload (openai/codex#17541: invalid_encrypted_content after a switch). " +
			"When the next request goes to another model, drop the reasoning items and send the items they produced without their server ids (a message as {role, content}, a function_call without its fc_ id), so nothing asks for the dropped reasoning.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Models: "models that do not reason (error); another reasoning family (warning)", Sources: []string{"openai/openai-agents-python#569", "openai/openai-agents-python#2602", "openai/codex#17541"}},
		Judge:    judgeReasoningModel,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-010", Title: "Every function_call has an output", Severity: check.SeverityError, Scope: "R",
		Law:           "Every function_call in input, and every function call of the response named by previous_response_id, has a function_call_output with the same call_id.",
		ProviderError: "No tool output found for function call call_….",
		Troubleshoot: "Typical after compaction or a proxy rewrite kept the call but dropped its output, or when a run was interrupted before the tool finished (router-for-me/CLIProxyAPI#2368). " +
			"Send one function_call_output per call, right after it; for a call that was cancelled, denied or never run, send an output that says so (Codex sends \"aborted\").",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"microsoft/vscode#320060", "docs/provider-rules.md R5"}},
		Judge:    judgeCallsAnswered,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-011", Title: "Every function_call_output answers a call", Severity: check.SeverityError, Scope: "R",
		Law:           "Every function_call_output's call_id names a function_call earlier in input or in the response named by previous_response_id.",
		ProviderError: "No tool call found for function call output with call_id call_….",
		Troubleshoot: "An orphan output is what is left when compaction or truncation removes the call but keeps its result, when outputs are sent with previous_response_id pointing at the wrong response, or when call ids are rewritten (microsoft/vscode#320060, cline/cline#9288, continuedev/continue#10092). " +
			"Drop orphan outputs or restore their calls; Codex's history normaliser removes them before sending.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"microsoft/vscode#320060", "docs/provider-rules.md R5"}},
		Judge:    judgeOutputsMatched,
	}),
	declare(&check.Check{
		ID: "OAI-TOOL-012", Title: "Responses item ids and roles", Severity: check.SeverityError, Scope: "R",
		Law:           "Item ids keep their provider prefixes (rs_ for reasoning, fc_ for function_call, msg_ for message), and input messages use only the roles user, assistant, system and developer — never tool.",
		ProviderError: "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'. / Expected an ID that begins with 'fc'",
		Troubleshoot: "Both come from code written for Chat Completions: a role \"tool\" message is how chat answers a call, but Responses wants a function_call_output item with the call_id (Chevey339/kelivo#281); " +
			"and putting the call_id (call_…) or another provider's id in a function_call's id field fails the prefix check (continuedev/continue#11785). " +
			"Keep the server's item ids as received, or leave id out.",
		Evidence: check.Evidence{Endpoints: check.OpenAIEndpoints, Sources: []string{"Chevey339/kelivo#281", "continuedev/continue#11785", "docs/provider-rules.md R6"}},
		Judge:    judgeIDsAndRoles,
	}),
	declare(&check.Check{
		ID: "OAI-CANCEL-001", Title: "Cancelled calls closed right after the call", Severity: check.SeverityInfo, Scope: "R",
		Law:           "Each function_call's output comes right after it (among the calls and outputs of the same step, before any message), and says what happened even when the call was cancelled (e.g. \"aborted\").",
		ProviderError: "",
		Troubleshoot: "The API accepts an output further down, but the model then reads the result out of order and a later history edit easily separates the pair. " +
			"An empty output reads as a successful call that returned nothing. Codex normalises history by inserting an \"aborted\" output right after any call lacking one; do the same when the user cancels, a permission is denied or the run is interrupted, and keep the reasoning item before the call.",
		Judge: judgeCancelledClosed,
	}),
}

// declare fills the fields every Responses check shares.
func declare(c *check.Check) *check.Check {
	c.Wire = traffic.WireResponses
	if c.Since == "" {
		c.Since = "0.1.0"
	}
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return append(slices.Clone(checks), ephemeralChecks...) }
