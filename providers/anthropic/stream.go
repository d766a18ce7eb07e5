package anthropic

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// reassembler rebuilds the message from stream events the way
// anthropic-sdk-go's Message.Accumulate does, and records every departure
// from the event grammar as a StreamIssue instead of stopping.
type reassembler struct {
	resp   *traffic.Response
	stream *traffic.Stream
	role   traffic.Role

	started      bool // message_start seen
	stopped      bool // message_stop seen
	failed       bool // error event seen
	sawDelta     bool // message_delta seen
	openAtStop   bool // a block was still open at message_stop
	earlyNoticed bool // an event before message_start was reported

	byIndex map[int]*blockState // by wire index
	blocks  []*blockState       // in output order
}

// decodeStream reassembles events into a Response with Stream filled.
func decodeStream(events []event) *traffic.Response {
	r := &reassembler{
		resp:    &traffic.Response{Wire: traffic.WireAnthropic, Output: []traffic.Message{}},
		stream:  &traffic.Stream{Offsets: make([]int, 0, len(events))},
		byIndex: map[int]*blockState{},
	}
	r.resp.Stream = r.stream
	for i, ev := range events {
		r.event(i, ev)
	}
	r.finish(len(events) - 1)
	return r.resp
}

func (r *reassembler) issue(check string, ev int, format string, args ...any) {
	r.stream.Issues = append(r.stream.Issues, traffic.StreamIssue{Check: check, Event: max(ev, 0), Message: fmt.Sprintf(format, args...)})
}

// event interprets one event. Its type comes from the data's own "type"
// (JSONL inputs have nothing else), falling back to the SSE event name.
func (r *reassembler) event(i int, ev event) {
	r.stream.Events++
	r.stream.Offsets = append(r.stream.Offsets, ev.offset)
	data := bytes.TrimSpace(ev.data)
	if len(data) == 0 && ev.name != "error" {
		return // the SDK skips events without data
	}
	we, err := decodeEvent(data)
	if err != nil {
		cut := ""
		if ev.cut {
			cut = " (the body ends inside this event)"
		}
		r.issue(traffic.CheckAnthropicStream, i, "%s event: data is not a JSON object%s: %s", orNone(ev.name), cut, body.Excerpt(data, 200))
		if ev.name == "error" {
			r.fail(data)
		}
		return
	}
	typ := we.Type
	if typ == "" {
		typ = ev.name
	}
	if typ == "" {
		r.issue(traffic.CheckAnthropicStream, i, "event without a type: %s", body.Excerpt(data, 200))
		return
	}
	if typ == "ping" {
		return // allowed anywhere
	}
	if r.stopped || r.failed {
		after := "message_stop"
		if r.failed {
			after = "the error event"
		}
		r.issue(traffic.CheckAnthropicStream, i, "%s after %s; ignored", typ, after)
		return
	}
	switch typ {
	case "message_start":
		r.messageStart(i, we)
	case "content_block_start":
		r.requireStart(i, typ)
		r.blockStart(i, we)
	case "content_block_delta":
		r.requireStart(i, typ)
		r.blockDelta(i, we)
	case "content_block_stop":
		r.requireStart(i, typ)
		r.blockStop(i, we)
	case "message_delta":
		r.requireStart(i, typ)
		r.messageDelta(we)
	case "message_stop":
		r.requireStart(i, typ)
		r.messageStop(i)
	case "error":
		r.fail(data)
	default:
		// The API may add event types without a new version; the SDK
		// ignores them, and so do we.
	}
}

func orNone(name string) string {
	if name == "" {
		return "unnamed"
	}
	return name
}

// requireStart reports the first event that comes before message_start.
// The event is still applied, as the SDK would.
func (r *reassembler) requireStart(i int, typ string) {
	if r.started || r.earlyNoticed {
		return
	}
	r.earlyNoticed = true
	r.issue(traffic.CheckAnthropicStream, i, "%s before message_start", typ)
}

func (r *reassembler) messageStart(i int, we *wireEvent) {
	if r.started {
		r.issue(traffic.CheckAnthropicStream, i, "a second message_start; ignored")
		return
	}
	r.started = true
	msg, err := rawjson.Fields(we.Message)
	if err != nil {
		r.issue(traffic.CheckAnthropicStream, i, "message_start without a message object")
		return
	}
	r.resp.ID = lookupString(msg, "id")
	r.resp.Model = lookupString(msg, "model")
	r.resp.StopReason = lookupString(msg, "stop_reason")
	r.role = traffic.Role(lookupString(msg, "role"))
	if u, ok := rawjson.Lookup(msg, "usage"); ok {
		r.resp.Usage = mergeUsage(r.resp.Usage, u)
	}
	// The skeleton's content is normally []; blocks in it count as
	// already started and stopped, as in the SDK.
	content, _ := rawjson.Lookup(msg, "content")
	items, _ := rawjson.Array(content)
	for _, item := range items {
		b, err := newBlockState(len(r.blocks), rawjson.Index("content", len(r.blocks)), item)
		if err != nil {
			r.issue(traffic.CheckAnthropicStream, i, "message_start content[%d]: %v", len(r.blocks), err)
			continue
		}
		b.stopped = true
		r.byIndex[b.index] = b
		r.blocks = append(r.blocks, b)
	}
}

// blockIndex reads an event's "index"; ok is false (and an issue recorded)
// when there is none.
func (r *reassembler) blockIndex(i int, typ string, we *wireEvent) (int, bool) {
	n, err := rawjson.IntAt("index", we.Index)
	if err != nil || n < 0 {
		r.issue(traffic.CheckAnthropicStream, i, "%s without a non-negative integer index", typ)
		return 0, false
	}
	return n, true
}

func (r *reassembler) blockStart(i int, we *wireEvent) {
	n, ok := r.blockIndex(i, "content_block_start", we)
	if !ok {
		return
	}
	if _, dup := r.byIndex[n]; dup {
		r.issue(traffic.CheckAnthropicBlockIndex, i, "content_block_start for index %d, which was already started; ignored", n)
		return
	}
	if n != len(r.blocks) {
		r.issue(traffic.CheckAnthropicBlockIndex, i, "content_block_start for index %d, expected index %d", n, len(r.blocks))
	}
	b, err := newBlockState(n, rawjson.Index("content", len(r.blocks)), we.ContentBlock)
	if err != nil {
		r.issue(traffic.CheckAnthropicStream, i, "content_block_start for index %d: %v", n, err)
		return
	}
	r.byIndex[n] = b
	r.blocks = append(r.blocks, b)
}

// openBlock returns the block an event addresses, reporting an index that
// was never started. A stopped block is returned too: the SDK still applies
// its deltas, and the caller reports them.
func (r *reassembler) openBlock(i int, typ string, we *wireEvent) *blockState {
	n, ok := r.blockIndex(i, typ, we)
	if !ok {
		return nil
	}
	b := r.byIndex[n]
	if b == nil {
		r.issue(traffic.CheckAnthropicBlockIndex, i, "%s for index %d, which was never started", typ, n)
	}
	return b
}

func (r *reassembler) blockDelta(i int, we *wireEvent) {
	b := r.openBlock(i, "content_block_delta", we)
	if b == nil {
		return
	}
	d := we.Delta
	if d == nil {
		r.issue(traffic.CheckAnthropicStream, i, "content_block_delta for index %d without a delta object", b.index)
		return
	}
	if b.stopped {
		check := traffic.CheckAnthropicBlockIndex
		if d.Type == "signature_delta" {
			check = traffic.CheckAnthropicDeltaType
		}
		r.issue(check, i, "%s for index %d (%s) after its content_block_stop", d.Type, b.index, b.block.Path)
	}
	if !b.apply(d) {
		r.issue(traffic.CheckAnthropicDeltaType, i, "%s on a %s block (index %d, %s); ignored", d.Type, b.wireType(), b.index, b.block.Path)
	}
}

func (r *reassembler) blockStop(i int, we *wireEvent) {
	b := r.openBlock(i, "content_block_stop", we)
	if b == nil {
		return
	}
	if b.stopped {
		r.issue(traffic.CheckAnthropicBlockIndex, i, "a second content_block_stop for index %d (%s)", b.index, b.block.Path)
		return
	}
	b.stopped = true
	if problem := b.finish(); problem != "" {
		r.issue(traffic.CheckAnthropicToolInput, i, "%s (index %d, %s): %s", b.wireType(), b.index, b.block.Path, problem)
	}
}

// messageDelta takes the stop reason and the cumulative usage.
func (r *reassembler) messageDelta(we *wireEvent) {
	r.sawDelta = true
	if we.Delta != nil {
		r.resp.StopReason = we.Delta.StopReason
	}
	if we.Usage != nil {
		r.resp.Usage = mergeUsage(r.resp.Usage, we.Usage)
	}
}

func (r *reassembler) messageStop(i int) {
	r.stopped = true
	if !r.sawDelta {
		r.issue(traffic.CheckAnthropicStream, i, "message_stop without a message_delta before it")
	}
	if open := r.openBlocks(); open != "" {
		r.openAtStop = true
		r.issue(traffic.CheckAnthropicStream, i, "message_stop while %s never stopped", open)
	}
}

// fail records an error event: the stream's terminal failure.
func (r *reassembler) fail(data []byte) {
	r.failed = true
	e := &traffic.APIError{Message: body.Excerpt(data, 200)}
	if fields, err := rawjson.Fields(data); err == nil {
		e = decodeErrorBody(200, fields)
	}
	r.stream.Error = e
	r.resp.Error = e
}

// openBlocks lists the blocks not stopped yet, for messages; "" when none.
func (r *reassembler) openBlocks() string {
	var open []string
	for _, b := range r.blocks {
		if !b.stopped {
			open = append(open, fmt.Sprintf("%s (index %d, %s)", b.block.Path, b.index, b.wireType()))
		}
	}
	return strings.Join(open, ", ")
}

// finish closes the stream: open blocks are finished as they stand (a
// thinking block without signature_delta keeps an empty signature) and
// marked Incomplete, whether the body ended or an error event came; a
// missing message_stop marks the stream truncated, and the message is
// complete only when message_stop closed every block and no error came.
func (r *reassembler) finish(last int) {
	open := r.openBlocks()
	for _, b := range r.blocks {
		b.finish() // again for stopped blocks: later deltas were applied
		if !b.stopped {
			b.block.Incomplete = true
		}
	}
	if !r.started && !r.failed && !r.earlyNoticed {
		r.issue(traffic.CheckAnthropicStream, last, "the stream has no message_start")
	}
	if !r.stopped && !r.failed {
		r.stream.Truncated = true
		msg := fmt.Sprintf("the stream ended without message_stop (%d events read)", r.stream.Events)
		if open != "" {
			msg += "; " + open + " never stopped"
		}
		r.issue(traffic.CheckAnthropicStream, last, "%s", msg)
		r.stream.Issues[len(r.stream.Issues)-1].Truncation = true
	}
	r.stream.Complete = r.stopped && !r.failed && !r.openAtStop
	if !r.started && len(r.blocks) == 0 {
		return
	}
	msg := traffic.Message{Role: r.role, Blocks: make([]traffic.Block, 0, len(r.blocks))}
	if msg.Role == "" {
		msg.Role = traffic.RoleAssistant
	}
	for _, b := range r.blocks {
		msg.Blocks = append(msg.Blocks, b.block)
	}
	r.resp.Output = append(r.resp.Output, msg)
	if !r.stream.Complete {
		r.stream.Partial = []int{0}
	}
}

// validObject reports whether b is exactly one JSON object.
func validObject(b []byte) bool {
	return rawjson.Valid(b) && rawjson.Kind(b) == "object"
}
