package history

import (
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// The HIST family judges history discipline within each thread (see
// Threads): a request extends the previous one's history append-only,
// except ephemeral content dropped from the tail and a recognised
// compaction. The analysis runs once per traffic and each check reports its
// share of it.
var checks = []*check.Check{
	declare(&check.Check{
		ID: "HIST-001", Title: "History is append-only", Severity: check.SeverityWarning,
		Law: "Within a conversation each request carries the previous request's history unchanged and appends to it; only user content at the tail may be dropped (ephemeral) and only a compaction may replace a prefix.",
		Troubleshoot: "An edited history — a message rewritten, removed or inserted before the end, a trailing assistant message dropped — invalidates the prompt cache from the first change on, and on models with preserved thinking every signed block after it no longer matches its prefix. " +
			"Typical causes: the harness rebuilds messages from its own store with normalised text, strips blocks it does not understand, re-orders parallel tool results, or reinserts reminders in the middle. Keep the history as sent and append updates as new trailing messages. " +
			"The diff shows the two histories one message per line (-previous request +this request).",
	}),
	declare(&check.Check{
		ID: "HIST-002", Title: "History edits keep tool pairs whole", Severity: check.SeverityError,
		Law:           "An edit of the history never removes one half of a tool call/result pair while keeping the other.",
		ProviderError: "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
		Troubleshoot: "Providers reject a tool call without its result and a result without its call (Anthropic A6/A7, OpenAI \"No tool output found for function call call_…\", Gemini's count rule). " +
			"It happens when compaction or context trimming cuts between a call and its result, when a cancelled call's synthetic result is not persisted, or when a proxy filters messages. Trim at turn boundaries and drop or keep both halves together; the diff shows the edit.",
		Evidence: check.Evidence{Endpoints: []traffic.Dialect{traffic.DialectDirect, traffic.DialectBedrock, traffic.DialectVertex, traffic.DialectAzure}, Sources: []string{"the tool-pair rules of each wire: docs/provider-rules.md A6/A7, C1/C2, R5, G7"}},
	}),
	declare(&check.Check{
		ID: "HIST-003", Title: "History edits keep signed blocks", Severity: check.SeverityError,
		Law:           "An edit of the history never removes a signed block (thinking with signature, redacted_thinking, reasoning with encrypted_content, a Gemini part with thoughtSignature) while later history is kept.",
		ProviderError: "Item 'fc_…' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
		Troubleshoot: "Signed blocks bind the conversation around them: Anthropic rejects a changed latest assistant message and, with preserved thinking, a block omitted between others; OpenAI rejects a function_call or message whose id was produced after reasoning when the reasoning item is gone; Gemini requires each function call's thoughtSignature in place. " +
			"check.Severity is error for those cases and warning where the provider only degrades (a Responses reasoning item whose follower carries no item id, a Gemini signature on a text part). " +
			"Typical causes: the harness drops thinking of older turns, converts reasoning to plain text, or rebuilds assistant messages from parsed content. Keep signed blocks exactly where they were, or remove everything after them too.",
		Evidence: check.Evidence{Endpoints: []traffic.Dialect{traffic.DialectDirect, traffic.DialectBedrock, traffic.DialectVertex, traffic.DialectAzure}, Sources: []string{"the signed-block rules of each wire: docs/provider-rules.md A1/A12, R1/R2, G1/G2"}},
	}),
	declare(&check.Check{
		ID: "HIST-004", Title: "Compaction recognised", Severity: check.SeverityInfo,
		Law:          "A compaction keeps the system prompt and replaces a prefix of the history with a summary (or drops it); it is reported so the reader can tell it from an edit.",
		Troubleshoot: "This is information, not a fault: the request keeps the system prompt and the recent history and replaces older messages. The prompt cache restarts at the summary and, on preserved-thinking models, thinking blocks kept after it no longer match their prefix — compact at a turn boundary, before a new user message, and keep tool pairs whole (HIST-002).",
	}),
}

func declare(c *check.Check) *check.Check {
	c.Scope, c.Since = "R,C", "0.1.0"
	c.Judge = func(tr *check.Traffic, r *check.Reporter) {
		for _, n := range thread.Of(tr).Notes[c.ID] {
			sev := n.Sev
			if sev == "" {
				sev = c.Severity
			}
			r.AddSeverity(sev, n.Interaction, n.Location, "%s", n.Message).Diff = n.Diff
		}
	}
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return append(slices.Clone(checks), ephemeralChecks...) }
