package anthropic

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	antwire "github.com/llmtck/llmtck/providers/anthropic"
	"github.com/llmtck/llmtck/traffic"
)

// The ephemeral checks judge content sent once and then gone from the
// history (threading finds it: see histAnalysis.eph) against what the
// provider ties to it.
var ephemeralChecks = []*check.Check{
	&check.Check{
		ID: "ANT-EPH-001", Title: "No thinking echoed after its ephemeral prefix is gone",
		Severity: check.SeverityError, Scope: "R,C", Wire: traffic.WireAnthropic, Since: "0.1.0",
		Law:           "A signed thinking block produced by the response to a request that carried ephemeral content is not echoed once that content is gone from the history: its signature is bound to the prefix it was produced after.",
		ProviderError: "messages.N.content.M: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\". …",
		Troubleshoot: "On models with preserved thinking the signature binds a thinking block to system, tools and every message before it — including the ephemeral reminder, file snapshot or status line the harness appended to that request and later left out. Echoing the block without it fails (400) or, with prefix_mismatch_behavior \"drop_block\", the block is silently dropped (thinking_dropped in input_transformations). " +
			"check.Severity is error, the default for accounts created from 2026-08-31; it is a warning when the request sets prefix_mismatch_behavior to \"drop_block\". Older models without preserved thinking do not check the prefix. " +
			"Fix: make such content append-only — send updates as new trailing messages that stay — or put it in a place that is not part of the prefix of any block you will echo.",
		Evidence: check.Evidence{Endpoints: check.AnthropicEndpoints, Models: "models with preserved thinking (bound signatures)", Sources: []string{"anomalyco/opencode#48637", "Anthropic docs: preserved-thinking, fix-bound-to-a-different-conversation", "docs/provider-rules.md A12, §1.7"}},
		Judge:    judgeNoThinkingAfterEphemeral,
	},
	&check.Check{
		ID: "ANT-EPH-002", Title: "Ephemeral content stays out of tool pairs",
		Severity: check.SeverityError, Scope: "R,C", Wire: traffic.WireAnthropic, Since: "0.1.0",
		Law:           "Ephemeral content sits after the tool_result blocks of the last user message or in a trailing message, never before tool_result blocks nor between a tool_use message and its results.",
		ProviderError: "messages.N: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
		Troubleshoot:  "Harnesses that inject a reminder, interrupt notice or file snapshot for one request often put it at the start of the user message that carries the tool results, or as a message of its own right after the assistant's tool_use. Both break the pair (A6/A8). Append it after the last tool_result block instead; the finding points at where it was.",
		Evidence:      check.Evidence{Endpoints: check.AnthropicEndpoints, Sources: []string{"anthropics/claude-code#37", "anthropics/anthropic-sdk-typescript#653", "docs/provider-rules.md A8, §1.7"}},
		Judge:         judgeEphemeralOutOfToolPairs,
	},
}

// judgeNoThinkingAfterEphemeral looks, for each echoed thinking block, at the request whose
// response produced it: if that request carried content of the thread's
// ephemeral set that this request no longer carries, the block's prefix is
// gone. Each block is reported once, where it is first echoed so.
func judgeNoThinkingAfterEphemeral(tr *check.Traffic, r *check.Reporter) {
	a := thread.Of(tr)
	origins := origin.Of(tr)
	reported := map[string]bool{}
	for i, hr := range a.Requests() {
		if hr.Wire != traffic.WireAnthropic || hr.Thread.Ephemeral == nil {
			continue
		}
		var present map[uint64]bool
		for m := range hr.Msgs {
			if hr.Msgs[m].Role != traffic.RoleAssistant {
				continue
			}
			for k := range hr.Msgs[m].Blocks {
				b := &hr.Msgs[m].Blocks[k]
				if !isThinkingBlock(b) {
					continue
				}
				key := payloadOf(b)
				o, ok := origins.First(traffic.WireAnthropic, origin.Payload, key, i)
				j := o.Exchange
				if key == "" || !ok || reported[key] || a.Req(j) == nil || a.Req(j).Thread != hr.Thread {
					continue
				}
				if present == nil {
					present = make(map[uint64]bool, len(hr.Units))
					for _, u := range hr.Units {
						present[u.FP] = true
					}
				}
				gone := goneEphemeral(a.Req(j), present)
				if len(gone) == 0 {
					continue
				}
				reported[key] = true
				sev := check.SeverityError
				if antwire.PrefixMismatchBehavior(hr.Req) == "drop_block" || !antwire.PrefixChecked(hr.Req.Model) {
					sev = check.SeverityWarning // dropped, or not checked on this model
				}
				r.AddSeverity(sev, tr.Exchanges[i].Index, "request."+b.Path,
					"%s was produced by interaction %d, whose request ended with ephemeral content that is gone from this request (%s): the block is bound to that prefix",
					show.Block(hr.Wire, b), tr.Exchanges[j].Index, strings.Join(gone, "; "))
			}
		}
	}
}

// goneEphemeral lists the ephemeral content of req (the thread's set of
// content dropped from a request's tail) missing from present, as
// "path block".
func goneEphemeral(req *thread.Request, present map[uint64]bool) []string {
	var out []string
	for i, u := range req.Units {
		if u.IsStart() || present[u.FP] {
			continue
		}
		if !req.Thread.Ephemeral[u.FP] {
			continue
		}
		_, b := req.Message(i)
		out = append(out, fmt.Sprintf("%s %s", b.Path, show.Block(req.Wire, b)))
	}
	return out
}

// judgeEphemeralOutOfToolPairs checks where each request's ephemeral content sat.
func judgeEphemeralOutOfToolPairs(tr *check.Traffic, r *check.Reporter) {
	a := thread.Of(tr)
	for i, hr := range a.Requests() {
		if hr.Wire != traffic.WireAnthropic {
			continue
		}
		done := map[int32]bool{}
		for _, e := range a.Eph[i] {
			u := hr.Units[e.Unit]
			if done[u.Msg] {
				continue
			}
			if why := insideToolPair(hr, e.Unit); why != "" {
				done[u.Msg] = true
				_, b := hr.Message(e.Unit)
				r.Add(tr.Exchanges[i].Index, "request."+b.Path,
					"ephemeral content (%s, gone from the next request) sits %s", show.Block(hr.Wire, b), why)
			}
		}
	}
}

// insideToolPair says where block unit i of r splits a tool pair, or "".
func insideToolPair(r *thread.Request, i int) string {
	u := r.Units[i]
	m := &r.Msgs[u.Msg]
	results := 0
	for k, b := range m.Blocks {
		if b.Type == traffic.BlockToolResult {
			results++
			if k > int(u.Block) {
				return fmt.Sprintf("before the tool_result blocks of %s", m.Path)
			}
		}
	}
	if results == 0 && u.Msg > 0 {
		prev := &r.Msgs[u.Msg-1]
		if prev.Role == traffic.RoleAssistant {
			for _, b := range prev.Blocks {
				if b.Type == traffic.BlockToolCall {
					return fmt.Sprintf("between the tool_use %s in %s and its tool_result", b.ID, prev.Path)
				}
			}
		}
	}
	return ""
}
