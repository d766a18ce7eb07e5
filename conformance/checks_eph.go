package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/engine"
)

// The ephemeral checks judge content sent once and then gone from the
// history (threading finds it: see histAnalysis.eph) against what the
// provider ties to it.
func init() {
	register(
		&Check{
			ID: "ANT-EPH-001", Title: "No thinking echoed after its ephemeral prefix is gone",
			Severity: SeverityError, Scope: "R,C", Wire: engine.WireAnthropic, Since: "0.1.0",
			Law:           "A signed thinking block produced by the response to a request that carried ephemeral content is not echoed once that content is gone from the history: its signature is bound to the prefix it was produced after.",
			ProviderError: "messages.N.content.M: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\". …",
			Troubleshoot: "On models with preserved thinking the signature binds a thinking block to system, tools and every message before it — including the ephemeral reminder, file snapshot or status line the harness appended to that request and later left out. Echoing the block without it fails (400) or, with prefix_mismatch_behavior \"drop_block\", the block is silently dropped (thinking_dropped in input_transformations). " +
				"Severity is error, the default for accounts created from 2026-08-31; it is a warning when the request sets prefix_mismatch_behavior to \"drop_block\". Older models without preserved thinking do not check the prefix. " +
				"Fix: make such content append-only — send updates as new trailing messages that stay — or put it in a place that is not part of the prefix of any block you will echo.",
			judge: judgeAntEph001,
		},
		&Check{
			ID: "ANT-EPH-002", Title: "Ephemeral content stays out of tool pairs",
			Severity: SeverityError, Scope: "R,C", Wire: engine.WireAnthropic, Since: "0.1.0",
			Law:           "Ephemeral content sits after the tool_result blocks of the last user message or in a trailing message, never before tool_result blocks nor between a tool_use message and its results.",
			ProviderError: "messages.N: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.",
			Troubleshoot:  "Harnesses that inject a reminder, interrupt notice or file snapshot for one request often put it at the start of the user message that carries the tool results, or as a message of its own right after the assistant's tool_use. Both break the pair (A6/A8). Append it after the last tool_result block instead; the finding points at where it was.",
			judge:         judgeAntEph002,
		},
		&Check{
			ID: "OAI-EPH-001", Title: "Responses ephemeral content only in stateless mode, never after reasoning",
			Severity: SeverityInfo, Scope: "R,C", Wire: engine.WireResponses, Since: "0.1.0",
			Law:           "Ephemeral input items are sent only with store:false and without previous_response_id chaining, and never between a reasoning item and the item that follows it.",
			ProviderError: "Item 'rs_…' of type 'reasoning' was provided without its required following item.",
			Troubleshoot: "With store:true (the default) or previous_response_id the server persists everything in input and replays it on chained requests, so content meant for one request is not ephemeral at all (info). " +
				"An ephemeral item placed right after a reasoning item separates the reasoning from the item it produced, which the API rejects (reported as error). Send ephemeral items after the last function_call_output, in stateless mode.",
			judge: judgeOaiEph001,
		},
	)
}

// judgeAntEph001 looks, for each echoed thinking block, at the request whose
// response produced it: if that request carried content of the thread's
// ephemeral set that this request no longer carries, the block's prefix is
// gone. Each block is reported once, where it is first echoed so.
func judgeAntEph001(tr *Traffic, r *reporter) {
	a := historyOf(tr)
	origin := map[string]int{}
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if ex.Wire != engine.WireAnthropic || ex.Response == nil {
			continue
		}
		for _, m := range ex.Response.Output {
			for k := range m.Blocks {
				if key := thinkingKey(&m.Blocks[k]); key != "" {
					if _, seen := origin[key]; !seen {
						origin[key] = i
					}
				}
			}
		}
	}
	reported := map[string]bool{}
	for i, hr := range a.reqs {
		if hr == nil || hr.wire != engine.WireAnthropic || hr.thread.ephemeral == nil {
			continue
		}
		var present map[uint64]bool
		for m := range hr.msgs {
			if hr.msgs[m].Role != engine.RoleAssistant {
				continue
			}
			for k := range hr.msgs[m].Blocks {
				b := &hr.msgs[m].Blocks[k]
				key := thinkingKey(b)
				j, ok := origin[key]
				if key == "" || !ok || j >= i || reported[key] || a.reqs[j] == nil || a.reqs[j].thread != hr.thread {
					continue
				}
				if present == nil {
					present = make(map[uint64]bool, len(hr.units))
					for _, u := range hr.units {
						present[u.fp] = true
					}
				}
				gone := goneEphemeral(a.reqs[j], present)
				if len(gone) == 0 {
					continue
				}
				reported[key] = true
				sev := SeverityError
				if dropsBoundBlocks(hr.req) {
					sev = SeverityWarning
				}
				r.addSeverity(sev, tr.Exchanges[i].Index, "request."+b.Path,
					"%s was produced by interaction %d, whose request ended with ephemeral content that is gone from this request (%s): the block is bound to that prefix",
					describeBlock(hr.wire, b), tr.Exchanges[j].Index, strings.Join(gone, "; "))
			}
		}
	}
}

// thinkingKey identifies a signed Anthropic thinking block by its payload.
func thinkingKey(b *engine.Block) string {
	switch {
	case b.Type == engine.BlockThinking && len(b.Signature) > 0:
		return "s" + string(b.Signature)
	case b.Type == engine.BlockRedacted && len(b.Data) > 0:
		return "d" + string(b.Data)
	}
	return ""
}

// goneEphemeral lists the ephemeral content of req (the thread's set of
// content dropped from a request's tail) missing from present, as
// "path block".
func goneEphemeral(req *histRequest, present map[uint64]bool) []string {
	var out []string
	for i, u := range req.units {
		if u.isStart() || present[u.fp] {
			continue
		}
		if !req.thread.ephemeral[u.fp] {
			continue
		}
		_, b := req.message(i)
		out = append(out, fmt.Sprintf("%s %s", b.Path, describeBlock(req.wire, b)))
	}
	return out
}

// dropsBoundBlocks reports whether the request asks the API to drop, not
// reject, thinking blocks whose prefix changed.
func dropsBoundBlocks(req *engine.Request) bool {
	if req.Thinking == nil || len(req.Thinking.Raw) == 0 {
		return false
	}
	var t struct {
		BlockBinding struct {
			PrefixMismatchBehavior string `json:"prefix_mismatch_behavior"`
		} `json:"block_binding"`
	}
	return json.Unmarshal(req.Thinking.Raw, &t) == nil && t.BlockBinding.PrefixMismatchBehavior == "drop_block"
}

// judgeAntEph002 checks where each request's ephemeral content sat.
func judgeAntEph002(tr *Traffic, r *reporter) {
	a := historyOf(tr)
	for i, hr := range a.reqs {
		if hr == nil || hr.wire != engine.WireAnthropic {
			continue
		}
		done := map[int32]bool{}
		for _, e := range a.eph[i] {
			u := hr.units[e.unit]
			if done[u.msg] {
				continue
			}
			if why := insideToolPair(hr, e.unit); why != "" {
				done[u.msg] = true
				_, b := hr.message(e.unit)
				r.add(tr.Exchanges[i].Index, "request."+b.Path,
					"ephemeral content (%s, gone from the next request) sits %s", describeBlock(hr.wire, b), why)
			}
		}
	}
}

// insideToolPair says where block unit i of r splits a tool pair, or "".
func insideToolPair(r *histRequest, i int) string {
	u := r.units[i]
	m := &r.msgs[u.msg]
	results := 0
	for k, b := range m.Blocks {
		if b.Type == engine.BlockToolResult {
			results++
			if k > int(u.block) {
				return fmt.Sprintf("before the tool_result blocks of %s", m.Path)
			}
		}
	}
	if results == 0 && u.msg > 0 {
		prev := &r.msgs[u.msg-1]
		if prev.Role == engine.RoleAssistant {
			for _, b := range prev.Blocks {
				if b.Type == engine.BlockToolCall {
					return fmt.Sprintf("between the tool_use %s in %s and its tool_result", b.ID, prev.Path)
				}
			}
		}
	}
	return ""
}

// judgeOaiEph001 checks each Responses request's ephemeral items: after a
// reasoning item (error) and in stored or chained conversations (info).
func judgeOaiEph001(tr *Traffic, r *reporter) {
	a := historyOf(tr)
	chainedTo := map[string]bool{}
	for _, hr := range a.reqs {
		if hr != nil && hr.chained {
			chainedTo[hr.req.PreviousResponseID] = true
		}
	}
	for i, hr := range a.reqs {
		if hr == nil || hr.wire != engine.WireResponses || len(a.eph[i]) == 0 {
			continue
		}
		first := ""
		done := map[int32]bool{}
		for _, e := range a.eph[i] {
			u := hr.units[e.unit]
			m := &hr.msgs[u.msg]
			if first == "" {
				first = m.Path
			}
			if done[u.msg] || u.msg == 0 || !isReasoningItem(&hr.msgs[u.msg-1]) {
				continue
			}
			done[u.msg] = true
			r.addSeverity(SeverityError, tr.Exchanges[i].Index, "request."+m.Path,
				"ephemeral item (gone from the next request) sits right after reasoning item %s, separating it from the item it produced",
				hr.msgs[u.msg-1].Path)
		}
		var why []string
		if hr.req.Store == nil {
			why = append(why, "store is true (the default)")
		} else if *hr.req.Store {
			why = append(why, "store is true")
		}
		if hr.chained {
			why = append(why, "the request is chained by previous_response_id "+hr.req.PreviousResponseID)
		}
		if hr.respID != "" && chainedTo[hr.respID] {
			why = append(why, "a later request chains to its response "+hr.respID)
		}
		if len(why) > 0 {
			r.add(tr.Exchanges[i].Index, "request."+first,
				"ephemeral content (gone from the next request) is persisted server-side: %s", strings.Join(why, ", "))
		}
	}
}

func isReasoningItem(m *engine.Message) bool {
	if m.WireType == "reasoning" {
		return true
	}
	return len(m.Blocks) == 1 && m.Blocks[0].Type == engine.BlockReasoning
}
