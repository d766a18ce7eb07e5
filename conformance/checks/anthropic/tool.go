package anthropic

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

var (
	toolIDRe   = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	serverIDRe = regexp.MustCompile(`^srvtoolu_[a-zA-Z0-9_]+$`)
	// interrupted recognises a user message that reports an interruption,
	// such as Claude Code's "[Request interrupted by user for tool use]".
	interrupted = regexp.MustCompile(`(?i)interrupt|cancel|abort`)
	// cancelWords recognises a tool result that reports a cancellation
	// or denial rather than the tool's output.
	cancelWords = regexp.MustCompile(`(?i)\b(cancell?ed|interrupted|denied|rejected|aborted)\b|doesn't want to proceed`)
)

// resultsByID maps the tool_use_id of each tool_result of m to its block.
func resultsByID(m *traffic.Message) map[string]*traffic.Block {
	out := map[string]*traffic.Block{}
	for p := range m.Blocks {
		if b := &m.Blocks[p]; b.Type == traffic.BlockToolResult {
			out[b.ToolCallID] = b
		}
	}
	return out
}

// unanswered lists the tool_use blocks of assistant message k that the
// next message does not answer, and describes that next message. Most
// assistant messages call no tool: they cost a look at their blocks.
func unanswered(msgs []traffic.Message, k int) (missing []*traffic.Block, next string) {
	if !hasBlock(&msgs[k], traffic.BlockToolCall) {
		return nil, ""
	}
	var answered map[string]*traffic.Block // none when the next message is not the user's
	if k+1 < len(msgs) && msgs[k+1].Role == traffic.RoleUser {
		answered = resultsByID(&msgs[k+1])
	}
	for p := range msgs[k].Blocks {
		b := &msgs[k].Blocks[p]
		if b.Type == traffic.BlockToolCall && answered[b.ID] == nil {
			missing = append(missing, b)
		}
	}
	switch {
	case len(missing) == 0:
	case k+1 >= len(msgs):
		next = "there is no next message"
	case msgs[k+1].Role != traffic.RoleUser:
		next = fmt.Sprintf("the next message messages[%d] is %s", k+1, msgs[k+1].Role)
	default:
		next = fmt.Sprintf("messages[%d] has no tool_result for it", k+1)
	}
	return missing, next
}

func idList(bs []*traffic.Block) string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ID
	}
	return strings.Join(ids, ", ")
}

// resultText is the text of a tool result: its string content, or its text blocks joined.
func resultText(b *traffic.Block) string {
	if len(b.ResultRaw) > 0 {
		if rawjson.Kind(b.ResultRaw) == "string" {
			return str(b.ResultRaw)
		}
		return ""
	}
	var parts []string
	for i := range b.Content {
		if b.Content[i].Type == traffic.BlockText {
			parts = append(parts, b.Content[i].Text)
		}
	}
	return strings.Join(parts, "\n")
}

// userText joins the text blocks of a message.
func userText(m *traffic.Message) string {
	var parts []string
	for i := range m.Blocks {
		if m.Blocks[i].Type == traffic.BlockText {
			parts = append(parts, m.Blocks[i].Text)
		}
	}
	return strings.Join(parts, "\n")
}

func judgeToolUseAnswered(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		for k := range msgs {
			if msgs[k].Role != traffic.RoleAssistant || k+1 < len(msgs) && !q.fresh[k+1] {
				continue
			}
			if missing, next := unanswered(msgs, k); len(missing) > 0 {
				r.Add(i, blockLoc(missing[0], "id"), "tool_use %s of messages[%d] not answered: %s", idList(missing), k, next)
			}
		}
	})
}

func judgeToolResultHasUse(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			if m.Role == traffic.RoleAssistant || !q.fresh[k] {
				continue
			}
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.Type != traffic.BlockToolResult || k > 0 && msgs[k-1].Role == traffic.RoleAssistant && hasCall(&msgs[k-1], b.ToolCallID) {
					continue
				}
				prev := "messages[0] has no previous message"
				if k > 0 {
					prev = fmt.Sprintf("the previous message messages[%d] (%s) has no tool_use with that id", k-1, msgs[k-1].Role)
				}
				for j := k - 2; j >= 0; j-- {
					if msgs[j].Role == traffic.RoleAssistant && hasCall(&msgs[j], b.ToolCallID) {
						prev += fmt.Sprintf("; it was called in messages[%d]", j)
						break
					}
				}
				r.Add(i, blockLoc(b, "tool_use_id"), "tool_result for %s in messages[%d]: %s", b.ToolCallID, k, prev)
			}
		}
	})
}

// hasCall reports whether m has a tool_use with the given id.
func hasCall(m *traffic.Message, id string) bool {
	for p := range m.Blocks {
		if b := &m.Blocks[p]; b.Type == traffic.BlockToolCall && b.ID == id {
			return true
		}
	}
	return false
}

func judgeToolResultsFirst(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		for k := range q.req.Messages {
			if !q.fresh[k] {
				continue
			}
			m := &q.req.Messages[k]
			other := -1
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.Type != traffic.BlockToolResult {
					if other < 0 {
						other = p
					}
					continue
				}
				if other >= 0 {
					r.Add(i, blockLoc(&m.Blocks[other], ""), "messages[%d] has a %s block at content[%d] before the tool_result for %s at content[%d]; tool_result blocks must come first",
						k, wireType(&m.Blocks[other]), other, b.ToolCallID, p)
					break
				}
			}
		}
	})
}

func judgeToolUseIDs(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		seen := make(map[string]*traffic.Block, len(q.calls)) // id → its first use
		for _, c := range q.calls {
			b := c.block
			first, dup := seen[b.ID]
			if !dup {
				seen[b.ID] = b
			}
			if !q.fresh[c.msg] {
				continue
			}
			if !toolIDRe.MatchString(b.ID) {
				r.Add(i, blockLoc(b, "id"), "tool_use id %q does not match %s", b.ID, toolIDRe)
			}
			if dup && b.ID != "" {
				r.AddSeverity(check.SeverityInfo, i, blockLoc(b, "id"), "tool_use id %q is used again (first at %s); ids should be unique in a conversation", b.ID, blockLoc(first, "id"))
			}
		}
		for k := range q.req.Messages {
			m := &q.req.Messages[k]
			if !q.fresh[k] || m.Role != traffic.RoleAssistant {
				continue
			}
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.WireType != "server_tool_use" {
					continue // read the raw id only where it is judged
				}
				if id := rawID(b); !serverIDRe.MatchString(id) {
					r.Add(i, blockLoc(b, "id"), "server_tool_use id %q does not match %s", id, serverIDRe)
				}
			}
		}
	})
}

// rawID reads the id of a block the model keeps raw (server_tool_use).
func rawID(b *traffic.Block) string {
	fields, err := rawjson.Fields(b.Raw)
	if err != nil {
		return ""
	}
	for _, f := range fields {
		if f.Key == "id" {
			return str(f.Value)
		}
	}
	return ""
}

func judgeToolInputUnchanged(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		for _, c := range q.calls {
			o := c.origin
			if o == nil || o.unfinished || !q.fresh[c.msg] {
				continue
			}
			b := c.block
			if b.Name != o.block.Name {
				r.Add(i, blockLoc(b, "name"), "tool_use %s is echoed with name %q; %s produced it with name %q", b.ID, b.Name, originName(o), o.block.Name)
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
			f := r.AddSeverity(sev, i, blockLoc(b, "input"), "tool_use %s input differs from the one %s produced: %s", b.ID, originName(o), what)
			f.Diff = diff.Bytes(want, got)
		}
	})
}

func judgeCancelledAnswered(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			switch m.Role {
			case traffic.RoleAssistant:
				if k+1 >= len(msgs) || msgs[k+1].Role != traffic.RoleUser || !q.fresh[k+1] {
					continue
				}
				missing, _ := unanswered(msgs, k)
				if len(missing) == 0 {
					continue
				}
				if said := userText(&msgs[k+1]); interrupted.MatchString(said) {
					r.Add(i, blockLoc(missing[0], "id"), "tool_use %s of messages[%d] was cancelled (messages[%d] says %q) but has no tool_result; answer it with is_error:true and an explanation",
						idList(missing), k, k+1, shortText(said))
				}
			case traffic.RoleUser:
				if !q.fresh[k] {
					continue
				}
				for p := range m.Blocks {
					b := &m.Blocks[p]
					if b.Type != traffic.BlockToolResult {
						continue
					}
					text := resultText(b)
					switch {
					case b.IsError && strings.TrimSpace(text) == "" && !hasMedia(b):
						r.AddSeverity(check.SeverityInfo, i, blockLoc(b, "content"), "error tool_result for %s has no explanation; say what happened (cancelled, denied, failed)", b.ToolCallID)
					case !b.IsError && len(text) <= 500 && cancelWords.MatchString(text):
						r.AddSeverity(check.SeverityInfo, i, blockLoc(b, "is_error"), "tool_result for %s reads as a cancellation (%q) but is_error is not true", b.ToolCallID, shortText(text))
					}
				}
			}
		}
	})
}

func hasMedia(b *traffic.Block) bool {
	for i := range b.Content {
		if t := b.Content[i].Type; t != traffic.BlockText {
			return true
		}
	}
	return false
}

func shortText(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func judgeNothingCutOffPersisted(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		for _, e := range q.echoes {
			if o := e.origin; o != nil && o.unfinished && q.fresh[e.msg] {
				why := "never stopped"
				if payloadOf(o.block) == "" {
					why = "no signature"
				}
				r.Add(i, blockLoc(e.block, ""), "%s block comes from %s, whose stream was cut off before the block was finished (%s); a partial message must not be persisted",
					e.block.Type, originName(o), why)
			}
		}
		for _, c := range q.calls {
			if o := c.origin; o != nil && o.unfinished && q.fresh[c.msg] {
				r.Add(i, blockLoc(c.block, ""), "tool_use %s comes from %s, whose stream was cut off before its input was complete; it must not be executed or persisted",
					c.block.ID, originName(o))
			}
		}
		for k := range q.req.Messages {
			if q.fresh[k] {
				cutText(a, q, k, i, r)
			}
		}
	})
}

// answeredAgain reports whether a call after src and before at
// answered whole with text: a failed stream retried, the same answer
// served again, which is what the request echoes.
func answeredAgain(a *analysis, src, at int, text string) bool {
	for j := src + 1; j < at && j < len(a.tr.Exchanges); j++ {
		ex := &a.tr.Exchanges[j]
		if ex.Wire != traffic.WireAnthropic || ex.Response == nil || ex.Response.Stream != nil && !ex.Response.Stream.Complete {
			continue
		}
		if out := a.output(j); out != nil {
			for _, b := range out.Blocks {
				if b.Type == traffic.BlockText && b.Text == text {
					return true
				}
			}
		}
	}
	return false
}

// cutText reports (warning) assistant message k of q when it keeps the
// text a cut-off stream was writing: the API accepts it, but the model then
// reads a half answer the user stopped as one it finished. A next user
// message that says so (interrupted, stopped, cancelled) makes it an info.
func cutText(a *analysis, q *request, k, at int, r *check.Reporter) {
	m := &q.req.Messages[k]
	if m.Role != traffic.RoleAssistant || q.origin[k] < 0 {
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
	if last.Type != traffic.BlockText || strings.TrimSpace(last.Text) == "" {
		return
	}
	if answeredAgain(a, q.origin[k], at, last.Text) {
		return
	}
	for _, b := range m.Blocks {
		if b.Type != traffic.BlockText || b.Text != last.Text {
			continue
		}
		if k+1 < len(q.req.Messages) && saysInterrupted(&q.req.Messages[k+1]) {
			r.AddSeverity(check.SeverityInfo, at, blockLoc(&b, "text"), "text block keeps the partial answer of interaction %d, whose stream was cut off mid-text; the next user message says it was interrupted",
				q.origin[k])
			return
		}
		r.AddSeverity(check.SeverityWarning, at, blockLoc(&b, "text"), "text block keeps the partial answer of interaction %d, whose stream was cut off mid-text: the model will read an answer the user stopped as one it finished; drop the cut-off message, or tell the model it was interrupted",
			q.origin[k])
		return
	}
}

// saysInterrupted reports whether a user message tells the model its
// previous answer was cut off.
func saysInterrupted(m *traffic.Message) bool {
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
