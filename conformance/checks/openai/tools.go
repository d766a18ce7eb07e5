package openai

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// judgeCallsAnswered (OAI-TOOL-001): the tool messages right after an
// assistant message with tool_calls answer every one of its call ids.
func judgeCallsAnswered(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, _ func(id string) *source) {
		msgs := req.Messages
		for i := range msgs {
			calls := callsOf(&msgs[i])
			if msgs[i].Role != traffic.RoleAssistant || len(calls) == 0 {
				continue
			}
			answered := map[string]bool{}
			j := i + 1
			for ; j < len(msgs) && msgs[j].Role == traffic.RoleTool; j++ {
				if b := result(&msgs[j]); b != nil {
					answered[b.ToolCallID] = true
				}
			}
			stop := "the request ends there"
			if j < len(msgs) {
				stop = "the " + roleOf(&msgs[j]) + " comes first"
			}
			for _, c := range calls {
				if !answered[c.ID] {
					r.Add(ex.Index, "request."+c.Path, "tool call %s (%s) of the assistant message %s has no tool message after it: %s",
						c.ID, c.Name, msgs[i].Path, stop)
				}
			}
		}
	})
}

// judgeResultsMatched (OAI-TOOL-002): a tool message follows (across
// other tool messages only) an assistant message that made its call.
func judgeResultsMatched(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, _ func(id string) *source) {
		msgs := req.Messages
		owner := -1 // the assistant message the current run of tool messages follows
		for j := range msgs {
			m := &msgs[j]
			if m.Role != traffic.RoleTool {
				owner = j
				continue
			}
			b := result(m)
			if b == nil {
				continue
			}
			if owner < 0 || msgs[owner].Role != traffic.RoleAssistant || len(callsOf(&msgs[owner])) == 0 {
				before := "it is the first message"
				if owner >= 0 {
					before = "it follows the " + roleOf(&msgs[owner])
				}
				r.Add(ex.Index, "request."+m.Path, "tool message %s (tool_call_id %s) does not follow an assistant message with tool_calls: %s",
					m.Path, b.ToolCallID, before)
				continue
			}
			var ids []string
			found := false
			for _, c := range callsOf(&msgs[owner]) {
				ids = append(ids, c.ID)
				found = found || c.ID == b.ToolCallID
			}
			if !found {
				r.Add(ex.Index, "request."+m.Path, "tool message %s answers tool_call_id %s, which is not among the tool_calls of %s (%s)",
					m.Path, b.ToolCallID, msgs[owner].Path, strings.Join(ids, ", "))
			}
		}
	})
}

// judgeArgumentsEchoed (OAI-TOOL-003; info when only whitespace differs): an echoed call's arguments equal
// the string the response produced. Providers decode the JSON string, so
// the decoded strings are compared. Each call is reported once.
func judgeArgumentsEchoed(tr *check.Traffic, r *check.Reporter) {
	reported := map[string]bool{}
	walkAll(tr, func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source) {
		for i := range req.Messages {
			if req.Messages[i].Role != traffic.RoleAssistant {
				continue
			}
			for _, c := range callsOf(&req.Messages[i]) {
				o := origins(c.ID)
				if o == nil {
					continue
				}
				// A call is its id in the response that made it: ids are
				// not unique across conversations (redacted, or numbered).
				call := strconv.Itoa(o.exchange) + "/" + c.ID
				if reported[call] || bytes.Equal(o.call.Input, c.Input) {
					continue
				}
				want, got := arguments(o.call.Input), arguments(c.Input)
				if want == got {
					continue
				}
				reported[call] = true
				sev, what := check.SeverityWarning, "differ from the string interaction %d produced"
				if string(rawjson.Compact([]byte(want))) == string(rawjson.Compact([]byte(got))) {
					sev, what = check.SeverityInfo, "differ in whitespace only from the string interaction %d produced"
				} else if rawjson.Equal([]byte(want), []byte(got)) {
					what = "are the string interaction %d produced re-encoded (key order, number format or escapes)"
				}
				f := r.AddSeverity(sev, ex.Index, "request."+c.Path, "arguments of tool call %s (%s) "+what,
					c.ID, c.Name, o.exchange)
				f.Diff = diff.Bytes([]byte(want), []byte(got))
			}
		}
	})
}

// cancelWords are what a tool message for a cut-off call should say.
var cancelWords = []string{"cancel", "abort", "interrupt", "denied", "not run"}

// judgeCancelledAnswered (OAI-TOOL-004, info): a tool message is never empty, and
// a call from a stream that never finished is answered as cancelled. Each
// call is reported once, where first seen.
func judgeCancelledAnswered(tr *check.Traffic, r *check.Reporter) {
	reported := map[string]bool{}
	walkAll(tr, func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source) {
		for i := range req.Messages {
			m := &req.Messages[i]
			b := result(m)
			if b == nil || reported[b.ToolCallID] {
				continue
			}
			text := resultText(b)
			if strings.TrimSpace(text) == "" {
				reported[b.ToolCallID] = true
				r.Add(ex.Index, "request."+m.Path, "tool message %s for call %s is empty; a cancelled, denied or failed call should say what happened",
					m.Path, b.ToolCallID)
				continue
			}
			o := origins(b.ToolCallID)
			if o == nil || !o.unfinished || saysCancelled(text) {
				continue
			}
			reported[b.ToolCallID] = true
			r.Add(ex.Index, "request."+m.Path, "tool call %s came from interaction %d, whose stream never finished, yet tool message %s does not say it was cancelled (%q)",
				b.ToolCallID, o.exchange, m.Path, show.Clip(text, 40))
		}
	})
}

func saysCancelled(text string) bool {
	low := strings.ToLower(text)
	for _, w := range cancelWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
