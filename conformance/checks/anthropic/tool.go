package anthropic

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

var (
	antToolIDRe   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	antServerIDRe = regexp.MustCompile(`^srvtoolu_[a-zA-Z0-9_]+$`)
	// antInterrupted recognises a user message that reports an interruption,
	// such as Claude Code's "[Request interrupted by user for tool use]".
	antInterrupted = regexp.MustCompile(`(?i)interrupt|cancel|abort`)
	// antCancelWords recognises a tool result that reports a cancellation
	// or denial rather than the tool's output.
	antCancelWords = regexp.MustCompile(`(?i)\b(cancell?ed|interrupted|denied|rejected|aborted)\b|doesn't want to proceed`)
)

// antResults maps the tool_use_id of each tool_result of m to its block.
func antResults(m *engine.Message) map[string]*engine.Block {
	out := map[string]*engine.Block{}
	for p := range m.Blocks {
		if b := &m.Blocks[p]; b.Type == engine.BlockToolResult {
			out[b.ToolCallID] = b
		}
	}
	return out
}

// antUnanswered lists the tool_use blocks of assistant message k that the
// next message does not answer, and describes that next message. Most
// assistant messages call no tool: they cost a look at their blocks.
func antUnanswered(msgs []engine.Message, k int) (missing []*engine.Block, next string) {
	if !hasBlock(&msgs[k], engine.BlockToolCall) {
		return nil, ""
	}
	var answered map[string]*engine.Block // none when the next message is not the user's
	if k+1 < len(msgs) && msgs[k+1].Role == engine.RoleUser {
		answered = antResults(&msgs[k+1])
	}
	for p := range msgs[k].Blocks {
		b := &msgs[k].Blocks[p]
		if b.Type == engine.BlockToolCall && answered[b.ID] == nil {
			missing = append(missing, b)
		}
	}
	switch {
	case len(missing) == 0:
	case k+1 >= len(msgs):
		next = "there is no next message"
	case msgs[k+1].Role != engine.RoleUser:
		next = fmt.Sprintf("the next message messages[%d] is %s", k+1, msgs[k+1].Role)
	default:
		next = fmt.Sprintf("messages[%d] has no tool_result for it", k+1)
	}
	return missing, next
}

func antIDs(bs []*engine.Block) string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ID
	}
	return strings.Join(ids, ", ")
}

// antText is the text of a tool result: its string content, or its text blocks joined.
func antText(b *engine.Block) string {
	if len(b.ResultRaw) > 0 {
		if rawjson.Kind(b.ResultRaw) == "string" {
			return antStr(b.ResultRaw)
		}
		return ""
	}
	var parts []string
	for i := range b.Content {
		if b.Content[i].Type == engine.BlockText {
			parts = append(parts, b.Content[i].Text)
		}
	}
	return strings.Join(parts, "\n")
}

// antUserText joins the text blocks of a message.
func antUserText(m *engine.Message) string {
	var parts []string
	for i := range m.Blocks {
		if m.Blocks[i].Type == engine.BlockText {
			parts = append(parts, m.Blocks[i].Text)
		}
	}
	return strings.Join(parts, "\n")
}

func judgeAntTool001(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		msgs := q.req.Messages
		for k := range msgs {
			if msgs[k].Role != engine.RoleAssistant || k+1 < len(msgs) && !q.fresh[k+1] {
				continue
			}
			if missing, next := antUnanswered(msgs, k); len(missing) > 0 {
				r.Add(i, antLoc(missing[0], "id"), "tool_use %s of messages[%d] not answered: %s", antIDs(missing), k, next)
			}
		}
	})
}

func judgeAntTool002(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			if m.Role == engine.RoleAssistant || !q.fresh[k] {
				continue
			}
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.Type != engine.BlockToolResult || k > 0 && msgs[k-1].Role == engine.RoleAssistant && antCalls(&msgs[k-1], b.ToolCallID) {
					continue
				}
				prev := "messages[0] has no previous message"
				if k > 0 {
					prev = fmt.Sprintf("the previous message messages[%d] (%s) has no tool_use with that id", k-1, msgs[k-1].Role)
				}
				for j := k - 2; j >= 0; j-- {
					if msgs[j].Role == engine.RoleAssistant && antCalls(&msgs[j], b.ToolCallID) {
						prev += fmt.Sprintf("; it was called in messages[%d]", j)
						break
					}
				}
				r.Add(i, antLoc(b, "tool_use_id"), "tool_result for %s in messages[%d]: %s", b.ToolCallID, k, prev)
			}
		}
	})
}

// antCalls reports whether m has a tool_use with the given id.
func antCalls(m *engine.Message, id string) bool {
	for p := range m.Blocks {
		if b := &m.Blocks[p]; b.Type == engine.BlockToolCall && b.ID == id {
			return true
		}
	}
	return false
}

func judgeAntTool003(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		for k := range q.req.Messages {
			if !q.fresh[k] {
				continue
			}
			m := &q.req.Messages[k]
			other := -1
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.Type != engine.BlockToolResult {
					if other < 0 {
						other = p
					}
					continue
				}
				if other >= 0 {
					r.Add(i, antLoc(&m.Blocks[other], ""), "messages[%d] has a %s block at content[%d] before the tool_result for %s at content[%d]; tool_result blocks must come first",
						k, antWireType(&m.Blocks[other]), other, b.ToolCallID, p)
					break
				}
			}
		}
	})
}

func judgeAntTool004(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		seen := make(map[string]*engine.Block, len(q.calls)) // id → its first use
		for _, c := range q.calls {
			b := c.block
			first, dup := seen[b.ID]
			if !dup {
				seen[b.ID] = b
			}
			if !q.fresh[c.msg] {
				continue
			}
			if !antToolIDRe.MatchString(b.ID) {
				r.Add(i, antLoc(b, "id"), "tool_use id %q does not match %s", b.ID, antToolIDRe)
			}
			if dup && b.ID != "" {
				r.AddSeverity(check.SeverityInfo, i, antLoc(b, "id"), "tool_use id %q is used again (first at %s); ids should be unique in a conversation", b.ID, antLoc(first, "id"))
			}
		}
		for k := range q.req.Messages {
			m := &q.req.Messages[k]
			if !q.fresh[k] || m.Role != engine.RoleAssistant {
				continue
			}
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.WireType != "server_tool_use" {
					continue // read the raw id only where it is judged
				}
				if id := antRawID(b); !antServerIDRe.MatchString(id) {
					r.Add(i, antLoc(b, "id"), "server_tool_use id %q does not match %s", id, antServerIDRe)
				}
			}
		}
	})
}

// antRawID reads the id of a block the model keeps raw (server_tool_use).
func antRawID(b *engine.Block) string {
	fields, err := rawjson.Fields(b.Raw)
	if err != nil {
		return ""
	}
	for _, f := range fields {
		if f.Key == "id" {
			return antStr(f.Value)
		}
	}
	return ""
}

func judgeAntTool005(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		for _, c := range q.calls {
			o := c.origin
			if o == nil || o.unfinished || !q.fresh[c.msg] {
				continue
			}
			b := c.block
			if b.Name != o.block.Name {
				r.Add(i, antLoc(b, "name"), "tool_use %s is echoed with name %q; %s produced it with name %q", b.ID, b.Name, antFrom(o), o.block.Name)
			}
			want, got := rawjson.Compact(o.block.Input), rawjson.Compact(b.Input)
			if string(want) == string(got) {
				continue
			}
			sev, what := check.SeverityWarning, "a different value"
			switch {
			case string(rawjson.Canonical(want)) == string(rawjson.Canonical(got)):
				// The API parses the input: string escapes (an encoder's
				// \u003c for <) do not reach the model.
				sev, what = check.SeverityInfo, "the same JSON with other string escapes"
			case rawjson.Equal(want, got):
				what = "the same value re-encoded (key order or number format)"
			}
			f := r.AddSeverity(sev, i, antLoc(b, "input"), "tool_use %s input differs from the one %s produced: %s", b.ID, antFrom(o), what)
			f.Diff = diff.Bytes(want, got)
		}
	})
}

func judgeAntCancel001(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			switch m.Role {
			case engine.RoleAssistant:
				if k+1 >= len(msgs) || msgs[k+1].Role != engine.RoleUser || !q.fresh[k+1] {
					continue
				}
				missing, _ := antUnanswered(msgs, k)
				if len(missing) == 0 {
					continue
				}
				if said := antUserText(&msgs[k+1]); antInterrupted.MatchString(said) {
					r.Add(i, antLoc(missing[0], "id"), "tool_use %s of messages[%d] was cancelled (messages[%d] says %q) but has no tool_result; answer it with is_error:true and an explanation",
						antIDs(missing), k, k+1, antShortText(said))
				}
			case engine.RoleUser:
				if !q.fresh[k] {
					continue
				}
				for p := range m.Blocks {
					b := &m.Blocks[p]
					if b.Type != engine.BlockToolResult {
						continue
					}
					text := antText(b)
					switch {
					case b.IsError && strings.TrimSpace(text) == "" && !antHasMedia(b):
						r.AddSeverity(check.SeverityInfo, i, antLoc(b, "content"), "error tool_result for %s has no explanation; say what happened (cancelled, denied, failed)", b.ToolCallID)
					case !b.IsError && len(text) <= 500 && antCancelWords.MatchString(text):
						r.AddSeverity(check.SeverityInfo, i, antLoc(b, "is_error"), "tool_result for %s reads as a cancellation (%q) but is_error is not true", b.ToolCallID, antShortText(text))
					}
				}
			}
		}
	})
}

func antHasMedia(b *engine.Block) bool {
	for i := range b.Content {
		if t := b.Content[i].Type; t != engine.BlockText {
			return true
		}
	}
	return false
}

func antShortText(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func judgeAntCancel002(tr *check.Traffic, r *check.Reporter) {
	a := antAnalyze(tr)
	a.each(func(i int, q *antReq) {
		for _, e := range q.echoes {
			if o := e.origin; o != nil && o.unfinished && q.fresh[e.msg] {
				why := "never stopped"
				if antPayload(o.block) == "" {
					why = "no signature"
				}
				r.Add(i, antLoc(e.block, ""), "%s block comes from %s, whose stream was cut off before the block was finished (%s); a partial message must not be persisted",
					e.block.Type, antFrom(o), why)
			}
		}
		for _, c := range q.calls {
			if o := c.origin; o != nil && o.unfinished && q.fresh[c.msg] {
				r.Add(i, antLoc(c.block, ""), "tool_use %s comes from %s, whose stream was cut off before its input was complete; it must not be executed or persisted",
					c.block.ID, antFrom(o))
			}
		}
		for k := range q.req.Messages {
			if q.fresh[k] {
				antCutText(a, q, k, i, r)
			}
		}
	})
}

// antAnsweredAgain reports whether a call after src and before at
// answered whole with text: a failed stream retried, the same answer
// served again, which is what the request echoes.
func antAnsweredAgain(a *antTraffic, src, at int, text string) bool {
	for j := src + 1; j < at && j < len(a.tr.Exchanges); j++ {
		ex := &a.tr.Exchanges[j]
		if ex.Wire != engine.WireAnthropic || ex.Response == nil || ex.Response.Stream != nil && !ex.Response.Stream.Complete {
			continue
		}
		if out := a.output(j); out != nil {
			for _, b := range out.Blocks {
				if b.Type == engine.BlockText && b.Text == text {
					return true
				}
			}
		}
	}
	return false
}

// antCutText reports (warning) assistant message k of q when it keeps the
// text a cut-off stream was writing: the API accepts it, but the model then
// reads a half answer the user stopped as one it finished. A next user
// message that says so (interrupted, stopped, cancelled) makes it an info.
func antCutText(a *antTraffic, q *antReq, k, at int, r *check.Reporter) {
	m := &q.req.Messages[k]
	if m.Role != engine.RoleAssistant || q.origin[k] < 0 {
		return
	}
	src := &a.tr.Exchanges[q.origin[k]]
	if src.Response == nil || src.Response.Stream == nil || src.Response.Stream.Complete {
		return
	}
	out := a.output(q.origin[k])
	if out == nil || len(out.Blocks) == 0 {
		return
	}
	last := &out.Blocks[len(out.Blocks)-1]
	if last.Type != engine.BlockText || strings.TrimSpace(last.Text) == "" {
		return
	}
	if antAnsweredAgain(a, q.origin[k], at, last.Text) {
		return
	}
	for _, b := range m.Blocks {
		if b.Type != engine.BlockText || b.Text != last.Text {
			continue
		}
		if k+1 < len(q.req.Messages) && antSaysInterrupted(&q.req.Messages[k+1]) {
			r.AddSeverity(check.SeverityInfo, at, antLoc(&b, "text"), "text block keeps the partial answer of interaction %d, whose stream was cut off mid-text; the next user message says it was interrupted",
				q.origin[k])
			return
		}
		r.AddSeverity(check.SeverityWarning, at, antLoc(&b, "text"), "text block keeps the partial answer of interaction %d, whose stream was cut off mid-text: the model will read an answer the user stopped as one it finished; drop the cut-off message, or tell the model it was interrupted",
			q.origin[k])
		return
	}
}

// antSaysInterrupted reports whether a user message tells the model its
// previous answer was cut off.
func antSaysInterrupted(m *engine.Message) bool {
	for _, b := range m.Blocks {
		t := strings.ToLower(b.Text)
		for _, w := range []string{"interrupt", "stopped", "cancel", "cut off"} {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}
