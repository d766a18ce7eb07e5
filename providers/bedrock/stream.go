package bedrock

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// event is one ConverseStream event: its type and JSON payload, from an
// event-stream message or a JSON line.
type event struct {
	typ       string
	payload   []byte
	offset    int
	exception bool // an exception message (validationException, throttlingException …)
}

// decodeEventStream reassembles an AWS event-stream body. Frames after the
// first one that does not decode are lost; the stream then ends early and
// says where.
func decodeEventStream(b []byte) *traffic.Response {
	msgs, err := eventstream.Decode(b)
	offsets, _ := eventstream.Offsets(b)
	events := make([]event, len(msgs))
	for i, m := range msgs {
		e := event{typ: m.String(":event-type"), payload: m.Payload, offset: offsets[i]}
		if m.String(":message-type") == "exception" {
			e.typ, e.exception = m.String(":exception-type"), true
		}
		events[i] = e
	}
	resp := reassemble(events)
	st := resp.Stream
	switch {
	case err == nil:
	case errors.Is(err, eventstream.ErrTruncated) && st.Truncated:
		// Cut inside its last frame: a truncation, already reported as one.
		last := &st.Issues[len(st.Issues)-1]
		last.Message += " (" + err.Error() + ")"
	default:
		st.Issues = append(st.Issues, traffic.StreamIssue{Check: traffic.CheckBedrockStream, Event: len(events), Message: err.Error()})
	}
	return resp
}

// decodeLines reassembles events saved one JSON object per line, each
// {"<eventType>": payload} (vercel/ai's Bedrock fixtures).
func decodeLines(b []byte) *traffic.Response {
	lines := body.Lines(b)
	events := make([]event, 0, len(lines))
	for _, l := range lines {
		e := event{offset: l.Offset, payload: l.Data}
		if fields, err := rawjson.Fields(l.Data); err == nil && len(fields) == 1 {
			e.typ, e.payload = fields[0].Key, fields[0].Value
			e.exception = strings.HasSuffix(e.typ, "Exception")
		}
		events = append(events, e)
	}
	return reassemble(events)
}

// decodeSSE reassembles JSON-line events that a recording framed as SSE
// (llmtck's JSONL reader writes `event: <type>` and `data: <line>`).
func decodeSSE(b []byte) *traffic.Response {
	var events []event
	for _, ev := range sse.Parse(b) {
		if ev.Data == "" {
			continue
		}
		e := event{offset: ev.Offset, payload: []byte(ev.Data)}
		if fields, err := rawjson.Fields(e.payload); err == nil && len(fields) == 1 {
			e.typ, e.payload = fields[0].Key, fields[0].Value
			e.exception = strings.HasSuffix(e.typ, "Exception")
		}
		events = append(events, e)
	}
	return reassemble(events)
}

// blockState is one content block being put together from its deltas.
type blockState struct {
	b       traffic.Block
	input   strings.Builder // toolUse input fragments
	sig     strings.Builder // reasoning signature fragments
	data    strings.Builder // redacted content fragments
	started bool            // by contentBlockStart (tool use) or a first delta
	stopped bool
}

type reassembly struct {
	resp             *traffic.Response
	st               *traffic.Stream
	blocks           map[int]*blockState
	started, stopped bool
}

func reassemble(events []event) *traffic.Response {
	r := &reassembly{
		resp:   &traffic.Response{Wire: traffic.WireBedrock, Output: []traffic.Message{}},
		st:     &traffic.Stream{Events: len(events), Offsets: make([]int, 0, len(events))},
		blocks: map[int]*blockState{},
	}
	r.resp.Stream = r.st
	for i, e := range events {
		r.st.Offsets = append(r.st.Offsets, e.offset)
		r.event(i, e)
	}
	r.finish(len(events))
	return r.resp
}

func (r *reassembly) issue(event int, format string, args ...any) {
	r.st.Issues = append(r.st.Issues, traffic.StreamIssue{Check: traffic.CheckBedrockStream, Event: event, Message: fmt.Sprintf(format, args...)})
}

// delta is the union of the events' payloads.
type delta struct {
	Role              string          `json:"role"`
	ContentBlockIndex *int            `json:"contentBlockIndex"`
	StopReason        string          `json:"stopReason"`
	Usage             json.RawMessage `json:"usage"`
	Message           string          `json:"message"`
	Start             *struct {
		ToolUse *struct {
			ToolUseID string `json:"toolUseId"`
			Name      string `json:"name"`
		} `json:"toolUse"`
	} `json:"start"`
	Delta *struct {
		Text    *string `json:"text"`
		ToolUse *struct {
			Input string `json:"input"`
		} `json:"toolUse"`
		ReasoningContent *struct {
			Text            *string         `json:"text"`
			Signature       *string         `json:"signature"`
			RedactedContent json.RawMessage `json:"redactedContent"`
		} `json:"reasoningContent"`
	} `json:"delta"`
}

func (r *reassembly) event(i int, e event) {
	if r.st.Error != nil {
		return
	}
	var d delta
	if err := json.Unmarshal(e.payload, &d); err != nil {
		r.issue(i, "%s event: payload is not a JSON object: %s", orNone(e.typ), body.Excerpt(e.payload, 120))
		return
	}
	if e.exception {
		r.st.Error = &traffic.APIError{Type: e.typ, Message: d.Message}
		r.resp.Error = r.st.Error
		return
	}
	if r.stopped && e.typ != "metadata" {
		r.issue(i, "%s event after messageStop", orNone(e.typ))
		return
	}
	switch e.typ {
	case "messageStart":
		if r.started {
			r.issue(i, "a second messageStart")
		}
		r.started = true
		return
	case "metadata":
		if d.Usage != nil {
			r.resp.Usage = decodeUsage(d.Usage)
		}
		return
	case "messageStop":
		r.stopped = true
		r.resp.StopReason = d.StopReason
		return
	}
	if !r.started {
		r.issue(i, "%s event before messageStart", orNone(e.typ))
	}
	if d.ContentBlockIndex == nil || *d.ContentBlockIndex < 0 || *d.ContentBlockIndex > len(r.blocks)+64 {
		r.issue(i, "%s event without a valid contentBlockIndex", orNone(e.typ))
		return
	}
	idx := *d.ContentBlockIndex
	bs := r.blocks[idx]
	switch e.typ {
	case "contentBlockStart":
		if bs != nil {
			r.issue(i, "contentBlockStart for block %d, which already started", idx)
			return
		}
		bs = &blockState{started: true, b: traffic.Block{Path: fmt.Sprintf("output.message.content[%d]", idx)}}
		if d.Start != nil && d.Start.ToolUse != nil {
			bs.b.Type, bs.b.WireType = traffic.BlockToolCall, memberToolUse
			bs.b.ID, bs.b.Name = d.Start.ToolUse.ToolUseID, d.Start.ToolUse.Name
		}
		r.blocks[idx] = bs
	case "contentBlockDelta":
		r.delta(i, idx, bs, d)
	case "contentBlockStop":
		if bs == nil || bs.stopped {
			r.issue(i, "contentBlockStop for block %d, which is not open", idx)
			return
		}
		bs.stopped = true
	default:
		r.issue(i, "unknown event %q", e.typ)
	}
}

// delta adds one contentBlockDelta to block idx, starting a text or
// reasoning block (which have no contentBlockStart) on its first delta.
func (r *reassembly) delta(i, idx int, bs *blockState, d delta) {
	if d.Delta == nil {
		r.issue(i, "contentBlockDelta for block %d without a delta", idx)
		return
	}
	kind, wire := traffic.BlockType(""), ""
	switch dd := d.Delta; {
	case dd.Text != nil:
		kind, wire = traffic.BlockText, memberText
	case dd.ToolUse != nil:
		kind, wire = traffic.BlockToolCall, memberToolUse
	case dd.ReasoningContent != nil && len(dd.ReasoningContent.RedactedContent) > 0:
		kind, wire = traffic.BlockRedacted, memberReasoning
	case dd.ReasoningContent != nil:
		kind, wire = traffic.BlockThinking, memberReasoning
	default:
		r.issue(i, "contentBlockDelta for block %d carries no text, toolUse or reasoningContent", idx)
		return
	}
	if bs == nil {
		if kind == traffic.BlockToolCall {
			r.issue(i, "toolUse delta for block %d, which no contentBlockStart opened", idx)
		}
		bs = &blockState{started: true, b: traffic.Block{Type: kind, WireType: wire, Path: fmt.Sprintf("output.message.content[%d]", idx)}}
		r.blocks[idx] = bs
	}
	if bs.stopped {
		r.issue(i, "contentBlockDelta for block %d after its contentBlockStop", idx)
		return
	}
	if bs.b.Type == "" {
		bs.b.Type, bs.b.WireType = kind, wire
	}
	if bs.b.Type != kind && !(bs.b.Type == traffic.BlockThinking && kind == traffic.BlockRedacted) {
		r.issue(i, "a %s delta for block %d, a %s block", kind, idx, bs.b.Type)
		return
	}
	switch dd := d.Delta; {
	case dd.Text != nil:
		bs.b.Text += *dd.Text
	case dd.ToolUse != nil:
		bs.input.WriteString(dd.ToolUse.Input)
	case len(dd.ReasoningContent.RedactedContent) > 0:
		s, _ := rawjson.String(dd.ReasoningContent.RedactedContent)
		bs.data.WriteString(s)
		bs.b.Type = traffic.BlockRedacted
	default:
		if t := dd.ReasoningContent.Text; t != nil {
			bs.b.Text += *t
		}
		if s := dd.ReasoningContent.Signature; s != nil {
			bs.sig.WriteString(*s)
		}
	}
}

// finish checks the end of the stream and builds the output message.
func (r *reassembly) finish(events int) {
	switch {
	case r.st.Error != nil:
	case r.stopped:
		r.st.Complete = true
	default:
		r.st.Truncated = true
		r.issue(events, "stream ended without messageStop")
		r.st.Issues[len(r.st.Issues)-1].Truncation = true
	}
	idxs := make([]int, 0, len(r.blocks))
	for k := range r.blocks {
		idxs = append(idxs, k)
	}
	sort.Ints(idxs)
	m := traffic.Message{Role: traffic.RoleAssistant, Path: "output.message", Blocks: make([]traffic.Block, 0, len(idxs))}
	partial := false
	for _, k := range idxs {
		bs := r.blocks[k]
		b := bs.b
		switch b.Type {
		case traffic.BlockToolCall:
			in := strings.TrimSpace(bs.input.String())
			if in == "" {
				in = "{}"
			}
			b.Input = json.RawMessage(in)
			if !rawjson.Valid(b.Input) || rawjson.Kind(b.Input) != "object" {
				if bs.stopped {
					r.issue(events-1, "toolUse %s (block %d): input does not parse as a JSON object: %q", b.ID, k, body.Excerpt([]byte(in), 120))
				}
				b.Input, b.Incomplete = rawjson.Quote(in), true
			}
		case traffic.BlockThinking:
			if bs.sig.Len() > 0 {
				b.Signature = rawjson.Quote(bs.sig.String())
			}
		case traffic.BlockRedacted:
			b.Data = rawjson.Quote(bs.data.String())
		}
		if !bs.stopped {
			b.Incomplete = true
			partial = true
		}
		m.Blocks = append(m.Blocks, b)
	}
	if len(m.Blocks) > 0 || r.started {
		r.resp.Output = append(r.resp.Output, m)
		if partial {
			r.st.Partial = append(r.st.Partial, 0)
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "(untyped)"
	}
	return s
}
