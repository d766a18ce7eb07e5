package gemini

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// judgeTurnOrder reports function call turns that open the history and
// function response turns that do not follow a function call turn.
func judgeTurnOrder(tr *check.Traffic, r *check.Reporter) {
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		msgs := q.req.Messages
		for _, run := range q.runs {
			if run.first == 0 && len(run.calls) > 0 {
				r.Add(q.ex.Index, "request."+msgs[run.calls[0].msg].Path,
					"the history opens with a function call turn (%s); it must come right after a user turn or a function response turn", describe(run.calls[0].b))
			}
		}
		for i := range msgs {
			m := &msgs[i]
			if m.Role == traffic.RoleAssistant || !hasResult(m) {
				continue
			}
			if i > 0 && resultsOnly(&msgs[i-1]) {
				continue // one response turn sent as several contents: judged at its first
			}
			switch {
			case i == 0:
				r.Add(q.ex.Index, "request."+m.Path, "the history opens with a function response turn; it must come right after the function call turn it answers")
			case msgs[i-1].Role != traffic.RoleAssistant:
				r.Add(q.ex.Index, "request."+m.Path, "function response turn follows a user content (%s), not a function call turn", msgs[i-1].Path)
			case len(q.runs[q.runOf[i-1]].calls) == 0:
				r.Add(q.ex.Index, "request."+m.Path, "function response turn follows a model turn without functionCall parts (%s)", msgs[i-1].Path)
			}
		}
	}
}

// judgeOneResponsePerCall compares each function call turn with the content after
// it: as many responses as calls (error), names and ids matching (info).
func judgeOneResponsePerCall(tr *check.Traffic, r *check.Reporter) {
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		msgs := q.req.Messages
		for _, run := range q.runs {
			next := run.last + 1
			if len(run.calls) == 0 || next >= len(msgs) {
				continue // a call turn at the tail has no response turn yet
			}
			m := &msgs[next]
			turn := responseTurn(msgs, next)
			results := 0
			for _, c := range turn {
				for j := range c.Blocks {
					if c.Blocks[j].Type == traffic.BlockToolResult {
						results++
					}
				}
			}
			if results != len(run.calls) {
				r.Add(q.ex.Index, "request."+m.Path, "the function call turn at contents[%d] has %d functionCall part(s) (%s), but the response turn after it has %d functionResponse part(s)",
					run.first, len(run.calls), strings.Join(callNames(run), ", "), results)
				continue
			}
			for _, c := range turn {
				matchResults(r, q, run, c)
			}
		}
	}
}

// responseTurn is the response turn starting at contents[i]: that
// content, and the contents right after it that hold only functionResponse
// parts. Gemini reads consecutive user contents as one turn: crewAI sends
// each response of a parallel call as a content of its own, and the API
// answers 200 (gemini-2.5-flash, crewAI's TestGeminiNativeToolCalling).
func responseTurn(msgs []traffic.Message, i int) []*traffic.Message {
	turn := []*traffic.Message{&msgs[i]}
	if !resultsOnly(&msgs[i]) {
		return turn
	}
	for k := i + 1; k < len(msgs) && resultsOnly(&msgs[k]); k++ {
		turn = append(turn, &msgs[k])
	}
	return turn
}

// resultsOnly reports whether m is a user-side content holding nothing
// but functionResponse parts.
func resultsOnly(m *traffic.Message) bool {
	if m.Role == traffic.RoleAssistant || len(m.Blocks) == 0 {
		return false
	}
	for j := range m.Blocks {
		if m.Blocks[j].Type != traffic.BlockToolResult {
			return false
		}
	}
	return true
}

// matchResults reports responses named after no call of the turn, and
// ids matching none of the calls' ids.
func matchResults(r *check.Reporter, q *resolvedRequest, run *modelRun, m *traffic.Message) {
	used := make([]bool, len(run.calls))
	for j := range m.Blocks {
		b := &m.Blocks[j]
		if b.Type != traffic.BlockToolResult {
			continue
		}
		named, idKnown, anyID := false, false, false
		for c, p := range run.calls {
			if !named && !used[c] && p.b.Name == b.Name {
				named, used[c] = true, true
			}
			anyID = anyID || p.b.ID != ""
			idKnown = idKnown || p.b.ID == b.ToolCallID
		}
		if !named {
			r.AddSeverity(check.SeverityInfo, q.ex.Index, "request."+b.Path+"."+b.WireType+".name",
				"functionResponse is named %q, but the calls of contents[%d] are named %s", b.Name, run.first, strings.Join(callNames(run), ", "))
		}
		if b.ToolCallID != "" && anyID && !idKnown {
			r.AddSeverity(check.SeverityInfo, q.ex.Index, "request."+b.Path+"."+b.WireType+".id",
				"functionResponse id %q matches no functionCall id of contents[%d]", b.ToolCallID, run.first)
		}
	}
}

func callNames(run *modelRun) []string {
	names := make([]string, len(run.calls))
	for c, p := range run.calls {
		names[c] = p.b.Name
	}
	return names
}

// cancelWords are what a tool result that reports a cancellation says.
var cancelWords = [][]byte{[]byte("cancel"), []byte("abort"), []byte("interrupt"), []byte("denied"), []byte("declined")}

// judgeCancelledAnsweredWithError reports cancellations answered as results, empty
// responses, and echoes of model content from streams cut short.
func judgeCancelledAnsweredWithError(tr *check.Traffic, r *check.Reporter) {
	reported := map[*output]bool{}
	for _, q := range analyze(tr).reqs {
		if q == nil {
			continue
		}
		for _, run := range q.runs {
			if run.out != nil && run.out.partial && !reported[run.out] {
				reported[run.out] = true
				r.Add(q.ex.Index, "request."+q.req.Messages[run.first].Path,
					"model turn echoes interaction %d's response, whose stream ended without a finishReason: partial content from a cut stream should be discarded, not sent back", run.out.ex)
			}
		}
		for i := range q.req.Messages {
			m := &q.req.Messages[i]
			if m.Role == traffic.RoleAssistant {
				continue
			}
			for j := range m.Blocks {
				b := &m.Blocks[j]
				if b.Type != traffic.BlockToolResult {
					continue
				}
				loc := "request." + b.Path + "." + b.WireType + ".response"
				if msg := cancelProblem(b.ResultRaw); msg != "" {
					r.Add(q.ex.Index, loc, "functionResponse %s %s", b.Name, msg)
				}
			}
		}
	}
}

// cancelProblem says what is wrong with a functionResponse.response, or
// returns "".
func cancelProblem(resp []byte) string {
	if bytes.IndexByte(resp, ':') >= 0 && mentionsCancel(resp) == "" {
		return "" // the common case, a non-empty result, decided without parsing
	}
	fields, err := rawjson.Fields(resp)
	if len(resp) == 0 || rawjson.Kind(resp) == "null" || err == nil && len(fields) == 0 {
		return "has an empty response: it reads as a call that returned nothing; say what happened, under \"error\" when the call did not run"
	}
	if err != nil {
		return ""
	}
	for _, f := range fields {
		if f.Key == "error" {
			return ""
		}
	}
	if w := mentionsCancel(resp); w != "" {
		return fmt.Sprintf("says %q outside \"error\" (%s): a cancellation written as a result reads as a successful call", w, show.Clip(string(rawjson.Compact(resp)), 60))
	}
	return ""
}

func hasResult(m *traffic.Message) bool {
	for i := range m.Blocks {
		if m.Blocks[i].Type == traffic.BlockToolResult {
			return true
		}
	}
	return false
}

// mentionsCancel returns the first cancellation word in b, ignoring
// ASCII case, or "".
func mentionsCancel(b []byte) string {
	for _, w := range cancelWords {
		for i := 0; i+len(w) <= len(b); i++ {
			if b[i]|0x20 == w[0] && bytes.EqualFold(b[i:i+len(w)], w) {
				return string(w)
			}
		}
	}
	return ""
}
