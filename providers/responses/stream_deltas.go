package responses

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// The handlers of part and delta events: they grow the text of content
// parts, summary parts and arguments, and report events that address a part
// or item that is unknown, finished or of another kind.

// partIndex reads an event's content_index or summary_index.
func (s *streamState) partIndex(o *object, typ, key string) (int, bool) {
	n, ok := intValue(o.get(key))
	if !ok || n < 0 {
		s.issue("%s has no valid %s", typ, key)
		return 0, false
	}
	return n, true
}

// contentPart reads content_part.added/.done of a message (output_text,
// refusal) or a reasoning item (reasoning_text).
func (s *streamState) contentPart(o *object, typ string) {
	it := s.itemFor(o, typ, "message", "reasoning")
	if it == nil {
		return
	}
	ci, ok := s.partIndex(o, typ, "content_index")
	if !ok {
		return
	}
	raw := o.get("part")
	po, err := parseObject(raw, "part")
	if err != nil {
		s.issue("%s for output_index %d carries no part object", typ, it.index)
		return
	}
	p := it.content(ci)
	ptype, _ := po.str("type")
	if strings.HasSuffix(typ, ".added") {
		if p.started {
			s.issue("content_index %d of output_index %d added twice", ci, it.index)
			return
		}
		p.started, p.raw, p.field = true, raw, textField(ptype)
		return
	}
	if !p.started {
		s.issue("content_part.done for content_index %d of output_index %d, which was never added", ci, it.index)
	}
	p.started, p.raw, p.field = true, raw, textField(ptype)
	if text, ok := po.str(p.field); ok {
		s.settle(p, text, fmt.Sprintf("content_index %d of output_index %d", ci, it.index))
	}
}

// textField names the field that holds a part's text.
func textField(partType string) string {
	if partType == "refusal" {
		return "refusal"
	}
	return "text"
}

// textDelta reads output_text, refusal and reasoning_text deltas.
func (s *streamState) textDelta(o *object, typ string) {
	kind := "message"
	if strings.HasPrefix(typ, "response.reasoning_text") {
		kind = "reasoning"
	}
	it := s.itemFor(o, typ, kind)
	if it == nil {
		return
	}
	ci, ok := s.partIndex(o, typ, "content_index")
	if !ok {
		return
	}
	p := s.partFor(it, ci, typ)
	if p == nil {
		return
	}
	delta, ok := o.str("delta")
	if !ok {
		s.issue("%s for output_index %d has no string delta", typ, it.index)
		return
	}
	p.text.WriteString(delta)
	p.deltas = true
}

// textDone reads output_text.done, refusal.done and reasoning_text.done.
func (s *streamState) textDone(o *object, typ string) {
	kind, key := "message", "text"
	switch {
	case strings.HasPrefix(typ, "response.reasoning_text"):
		kind = "reasoning"
	case strings.HasPrefix(typ, "response.refusal"):
		key = "refusal"
	}
	it := s.itemFor(o, typ, kind)
	if it == nil {
		return
	}
	ci, ok := s.partIndex(o, typ, "content_index")
	if !ok {
		return
	}
	p := s.partFor(it, ci, typ)
	if p == nil {
		return
	}
	text, ok := o.str(key)
	if !ok {
		s.issue("%s for output_index %d has no string %s", typ, it.index, key)
		return
	}
	s.settle(p, text, fmt.Sprintf("content_index %d of output_index %d", ci, it.index))
}

// partFor finds the content part a text event addresses. Message parts must
// have been announced by content_part.added; reasoning_text parts are
// accepted without one, as the API reference does not promise it.
func (s *streamState) partFor(it *item, ci int, typ string) *part {
	p := it.content(ci)
	want := "text"
	if strings.HasPrefix(typ, "response.refusal") {
		want = "refusal"
	}
	switch {
	case !p.started && it.typ == "message":
		s.issue("%s for content_index %d of output_index %d, which was never added", typ, ci, it.index)
		p.started, p.field = true, want
	case !p.started:
		p.started, p.field = true, want
	case p.field != want:
		s.issue("%s on content_index %d of output_index %d, a %s part", typ, ci, it.index, partKind(p))
		return nil
	}
	return p
}

func partKind(p *part) string {
	if p.field == "refusal" {
		return "refusal"
	}
	return "text"
}

// settle records a part's final text from a .done event, reporting a text
// that is not what its deltas built.
func (s *streamState) settle(p *part, text, where string) {
	if p.deltas && p.text.String() != text {
		s.issue("final text of %s differs from its deltas", where)
	}
	p.text.Reset()
	p.text.WriteString(text)
	p.deltas = true
}

// summaryPart reads reasoning_summary_part.added/.done.
func (s *streamState) summaryPart(o *object, typ string) {
	it := s.itemFor(o, typ, "reasoning")
	if it == nil {
		return
	}
	si, ok := s.partIndex(o, typ, "summary_index")
	if !ok {
		return
	}
	raw := o.get("part")
	po, err := parseObject(raw, "part")
	if err != nil {
		s.issue("%s for output_index %d carries no part object", typ, it.index)
		return
	}
	p := it.summaryPart(si)
	if strings.HasSuffix(typ, ".added") {
		if p.started {
			s.issue("summary_index %d of output_index %d added twice", si, it.index)
			return
		}
		p.started, p.raw, p.field = true, raw, "text"
		return
	}
	if !p.started {
		s.issue("reasoning_summary_part.done for summary_index %d of output_index %d, which was never added", si, it.index)
	}
	p.started, p.raw, p.field = true, raw, "text"
	if text, ok := po.str("text"); ok {
		s.settle(p, text, fmt.Sprintf("summary_index %d of output_index %d", si, it.index))
	}
}

// summaryDelta reads reasoning_summary_text.delta.
func (s *streamState) summaryDelta(o *object, typ string) {
	p, it := s.summaryFor(o, typ)
	if p == nil {
		return
	}
	delta, ok := o.str("delta")
	if !ok {
		s.issue("%s for output_index %d has no string delta", typ, it.index)
		return
	}
	p.text.WriteString(delta)
	p.deltas = true
}

// summaryDone reads reasoning_summary_text.done.
func (s *streamState) summaryDone(o *object, typ string) {
	p, it := s.summaryFor(o, typ)
	if p == nil {
		return
	}
	text, ok := o.str("text")
	if !ok {
		s.issue("%s for output_index %d has no string text", typ, it.index)
		return
	}
	s.settle(p, text, fmt.Sprintf("summary of output_index %d", it.index))
}

func (s *streamState) summaryFor(o *object, typ string) (*part, *item) {
	it := s.itemFor(o, typ, "reasoning")
	if it == nil {
		return nil, nil
	}
	si, ok := s.partIndex(o, typ, "summary_index")
	if !ok {
		return nil, nil
	}
	p := it.summaryPart(si)
	if !p.started {
		s.issue("%s for summary_index %d of output_index %d, which was never added", typ, si, it.index)
		p.started, p.field = true, "text"
	}
	return p, it
}

// argsDelta reads function_call_arguments.delta and custom_tool_call_input.delta.
func (s *streamState) argsDelta(o *object, typ string) {
	kind := argsKind(typ)
	it := s.itemFor(o, typ, kind)
	if it == nil {
		return
	}
	delta, ok := o.str("delta")
	if !ok {
		s.issue("%s for output_index %d has no string delta", typ, it.index)
		return
	}
	it.args.WriteString(delta)
	it.argsSeen = true
}

// argsDone reads function_call_arguments.done and custom_tool_call_input.done.
func (s *streamState) argsDone(o *object, typ string) {
	kind := argsKind(typ)
	it := s.itemFor(o, typ, kind)
	if it == nil {
		return
	}
	key := "arguments"
	if kind == "custom_tool_call" {
		key = "input"
	}
	final, ok := o.str(key)
	if !ok {
		s.issue("%s for output_index %d has no string %s", typ, it.index, key)
		return
	}
	if it.argsSeen && it.args.String() != final {
		s.issue("%s of output_index %d differ from its deltas", key, it.index)
	}
	if kind == "function_call" && final != "" && !rawjson.Valid([]byte(final)) {
		s.issue("arguments of output_index %d are not valid JSON", it.index)
	}
	it.args.Reset()
	it.args.WriteString(final)
	it.argsSeen = true
}

func argsKind(typ string) string {
	if strings.HasPrefix(typ, "response.custom_tool_call_input") {
		return "custom_tool_call"
	}
	return "function_call"
}
