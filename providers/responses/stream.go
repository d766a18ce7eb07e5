package responses

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Reassembly follows the OpenAI SDKs. openai-python's ResponseStreamState
// builds a snapshot from output_item.added plus content_part.added and the
// text/argument deltas, addressed by output_index, and returns the terminal
// event's response as the final one; openai-go's ResponseAccumulator lets an
// output_item.done item replace what the deltas built and a terminal
// response.output supersede both. Here the output_item.done item is the
// authoritative copy of each item (docs/provider-rules.md §3.4: .added may lack
// encrypted_content, and the server re-encrypts encrypted_content every time
// it serialises an item, so the .done, terminal and .added tokens differ);
// the terminal output fills items that were never done and is checked
// against the .done items. An item that was only added is rebuilt from its
// deltas and listed in Stream.Partial.

// terminals are the events that end a Responses stream.
var terminals = map[string]bool{
	"response.completed":  true,
	"response.incomplete": true,
	"response.failed":     true,
}

// streamState is the reassembly in progress.
type streamState struct {
	resp *traffic.Response
	st   *traffic.Stream
	cur  int // index of the event being read

	started bool // an event with a type was read
	seq     int
	seqSeen bool
	respID  string // the first response id seen

	items     map[int]*item
	nextAdded int // the output_index the next output_item.added should carry

	terminal    string // the terminal event's type, once seen
	terminalAt  int
	terminalOut []json.RawMessage // terminal response.output, when carried
	spliced     bool              // an event followed the terminal one
	errEvent    *traffic.APIError
	failedErr   *traffic.APIError
}

// decodeStream reassembles a stream's events into a Response.
func decodeStream(events []event) *traffic.Response {
	s := &streamState{
		resp:  &traffic.Response{Wire: traffic.WireResponses},
		st:    &traffic.Stream{Offsets: make([]int, 0, len(events))},
		items: map[int]*item{},
	}
	s.resp.Stream = s.st
	for i, ev := range events {
		s.cur = i
		s.st.Events++
		s.st.Offsets = append(s.st.Offsets, ev.offset)
		s.event(ev.data)
	}
	s.finish()
	return s.resp
}

func (s *streamState) issue(format string, args ...any) { s.issueAt(s.cur, format, args...) }

func (s *streamState) issueAt(ev int, format string, args ...any) {
	s.st.Issues = append(s.st.Issues, traffic.StreamIssue{Check: traffic.CheckResponsesStream, Event: ev, Message: fmt.Sprintf(format, args...)})
}

// event reads one event's data.
func (s *streamState) event(data string) {
	data = strings.TrimSpace(data)
	if data == "" {
		s.issue("event has no data")
		return
	}
	if data == "[DONE]" { // a Chat Completions sentinel some gateways append
		return
	}
	o, err := parseObject(json.RawMessage(data), "data")
	if err != nil {
		s.issue("event data is not a JSON object: %v", err)
		return
	}
	typ, _ := o.str("type")
	if typ == "" {
		s.issue("event has no type")
		return
	}
	if !s.started {
		// openai-python refuses any other first event.
		if typ != "response.created" && typ != "error" {
			s.issue("stream begins with %s, not response.created", typ)
		}
		s.started = true
	}
	if s.terminal != "" { // reported once; the events are not read
		if !s.spliced {
			s.issue("%s after the terminal %s event (event %d): a second stream or a spliced body", typ, s.terminal, s.terminalAt)
		}
		s.spliced = true
		return
	}
	if n, ok := intValue(o.get("sequence_number")); ok {
		if s.seqSeen && n <= s.seq {
			s.issue("%s has sequence_number %d after %d: not strictly increasing", typ, n, s.seq)
		}
		s.seq, s.seqSeen = n, true
	}
	switch typ {
	case "response.created", "response.in_progress", "response.queued":
		s.lifecycle(o, typ)
	case "response.completed", "response.incomplete", "response.failed":
		s.lifecycle(o, typ)
		s.terminal, s.terminalAt = typ, s.cur
	case "error":
		s.errEvent = errorEvent(o)
	case "response.output_item.added":
		s.added(o)
	case "response.output_item.done":
		s.done(o)
	case "response.content_part.added", "response.content_part.done":
		s.contentPart(o, typ)
	case "response.output_text.delta", "response.refusal.delta", "response.reasoning_text.delta":
		s.textDelta(o, typ)
	case "response.output_text.done", "response.refusal.done", "response.reasoning_text.done":
		s.textDone(o, typ)
	case "response.reasoning_summary_part.added", "response.reasoning_summary_part.done":
		s.summaryPart(o, typ)
	case "response.reasoning_summary_text.delta":
		s.summaryDelta(o, typ)
	case "response.reasoning_summary_text.done":
		s.summaryDone(o, typ)
	case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
		s.argsDelta(o, typ)
	case "response.function_call_arguments.done", "response.custom_tool_call_input.done":
		s.argsDone(o, typ)
	}
	// Other events (web_search_call.*, annotations, audio…) add nothing the
	// .done item does not carry.
}

// lifecycle reads the response object of created/in_progress/terminal events.
func (s *streamState) lifecycle(o *object, typ string) {
	raw := o.get("response")
	ro, err := parseObject(raw, "response")
	if err != nil {
		s.issue("%s carries no response object", typ)
		return
	}
	if id, _ := ro.str("id"); id != "" {
		if s.respID == "" {
			s.respID = id
		} else if id != s.respID {
			s.issue("%s names response %s, but the stream began as %s", typ, id, s.respID)
		}
	}
	// Output is rebuilt from the items below, not read from here.
	out := ro.get("output")
	fillResponse(s.resp, &object{fields: withoutKey(ro.fields, "output")}, "")
	if terminals[typ] {
		if s.resp.Status == "" {
			s.resp.Status = strings.TrimPrefix(typ, "response.")
		}
		if typ == "response.failed" {
			s.failedErr = s.resp.Error
		}
		if rawjson.Kind(out) == "array" {
			s.terminalOut, _ = rawjson.Array(out)
		}
	}
}

func withoutKey(fields []rawjson.Field, key string) []rawjson.Field {
	out := make([]rawjson.Field, 0, len(fields))
	for _, f := range fields {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}

// outputIndex reads an event's output_index.
func (s *streamState) outputIndex(o *object, typ string) (int, bool) {
	n, ok := intValue(o.get("output_index"))
	if !ok || n < 0 {
		s.issue("%s has no valid output_index", typ)
		return 0, false
	}
	return n, true
}

// added reads response.output_item.added.
func (s *streamState) added(o *object) {
	const typ = "response.output_item.added"
	idx, ok := s.outputIndex(o, typ)
	if !ok {
		return
	}
	raw := o.get("item")
	io, err := parseObject(raw, "item")
	if err != nil {
		s.issue("%s for output_index %d carries no item object", typ, idx)
		return
	}
	it := s.items[idx]
	switch {
	case it != nil && it.added != nil:
		s.issue("output_index %d added twice", idx)
		return
	case it == nil && idx != s.nextAdded:
		s.issue("output_index %d added where %d was expected", idx, s.nextAdded)
	}
	if it == nil {
		it = s.newItem(idx)
	}
	s.nextAdded = max(s.nextAdded, idx+1)
	it.added, it.addedAt = raw, s.cur
	it.id, _ = io.str("id")
	it.typ, _ = io.str("type")
}

// done reads response.output_item.done: its item is the authoritative copy.
func (s *streamState) done(o *object) {
	const typ = "response.output_item.done"
	idx, ok := s.outputIndex(o, typ)
	if !ok {
		return
	}
	raw := o.get("item")
	io, err := parseObject(raw, "item")
	if err != nil {
		s.issue("%s for output_index %d carries no item object", typ, idx)
		return
	}
	id, _ := io.str("id")
	it := s.items[idx]
	switch {
	case it == nil || it.added == nil:
		s.issue("output_index %d (%s) done without output_item.added", idx, id)
		if it == nil {
			it = s.newItem(idx)
			it.addedAt = s.cur
		}
	case it.done != nil:
		s.issue("output_index %d done twice", idx)
	case id != "" && it.id != "" && id != it.id:
		s.issue("output_item.done for output_index %d carries item %s, but %s was added there", idx, id, it.id)
	}
	it.done = raw
	if it.id == "" {
		it.id = id
	}
	if it.typ == "" {
		it.typ, _ = io.str("type")
	}
}

// newItem starts the state of output_index idx. An item that starts in its
// place without output_item.added still moves the expected next index past
// it, so one fault is reported once, not again for every later item.
func (s *streamState) newItem(idx int) *item {
	it := &item{index: idx}
	s.items[idx] = it
	if idx == s.nextAdded {
		s.nextAdded++
	}
	return it
}

// itemFor finds the item a delta or part event addresses, reporting an
// unknown, finished or mismatched one. A delta for an item never added
// starts an implicit item of the kind the event implies, so no text is lost.
// It returns nil when the event must be dropped.
func (s *streamState) itemFor(o *object, typ string, kinds ...string) *item {
	idx, ok := s.outputIndex(o, typ)
	if !ok {
		return nil
	}
	itemID, _ := o.str("item_id")
	it := s.items[idx]
	if it == nil {
		s.issue("%s for output_index %d, which was never added", typ, idx)
		it = s.newItem(idx)
		it.id, it.typ, it.addedAt = itemID, kinds[0], s.cur
		return it
	}
	if it.done != nil {
		s.issue("%s for output_index %d after its output_item.done", typ, idx)
		return nil
	}
	if itemID != "" && it.id != "" && itemID != it.id {
		s.issue("%s names item %s, but output_index %d is %s", typ, itemID, idx, it.id)
	}
	for _, k := range kinds {
		if it.typ == k {
			return it
		}
	}
	s.issue("%s on output_index %d, a %s item", typ, idx, it.typ)
	return nil
}

// finish checks the ending, then builds Output in output_index order.
func (s *streamState) finish() {
	st := s.st
	defer func() { // issues in event order, whatever found them
		sort.SliceStable(st.Issues, func(i, j int) bool { return st.Issues[i].Event < st.Issues[j].Event })
	}()
	if s.terminal == "" && s.errEvent == nil {
		st.Truncated = true
		s.issueAt(st.Events, "stream ended after %d events without response.completed, response.incomplete or response.failed", st.Events)
		st.Issues[len(st.Issues)-1].Truncation = true
	}
	st.Error = s.errEvent
	switch {
	case s.errEvent != nil:
		s.resp.Error = s.errEvent
	case s.failedErr != nil:
		s.resp.Error = s.failedErr
	}
	st.Complete = s.errEvent == nil && (s.terminal == "response.completed" || s.terminal == "response.incomplete")

	idxs := make([]int, 0, len(s.items)+len(s.terminalOut))
	for idx := range s.items {
		idxs = append(idxs, idx)
	}
	for idx := range s.terminalOut {
		if s.items[idx] == nil {
			idxs = append(idxs, idx)
		}
	}
	sort.Ints(idxs)
	for _, idx := range idxs {
		it := s.items[idx]
		var fin json.RawMessage
		if idx < len(s.terminalOut) {
			fin = s.terminalOut[idx]
		}
		raw, partial := s.settleItem(idx, it, fin)
		m := outputMessage(raw, rawjson.Index("output", idx))
		if partial {
			st.Partial = append(st.Partial, len(s.resp.Output))
			markIncomplete(m.Blocks)
		}
		s.resp.Output = append(s.resp.Output, m)
	}
}

// settleItem picks the copy of output item idx that goes into Output and
// reports what the stream left unfinished or contradicted.
func (s *streamState) settleItem(idx int, it *item, fin json.RawMessage) (raw json.RawMessage, partial bool) {
	if it == nil {
		s.issueAt(s.terminalAt, "%s carries output[%d], which was never streamed", s.terminal, idx)
		return fin, false
	}
	if it.done == nil {
		s.issueAt(it.addedAt, "output_index %d (%s %s) was added but never done", idx, it.typ, it.id)
		if fin != nil {
			return fin, false
		}
		return it.rebuild(), true
	}
	if len(s.terminalOut) > 0 {
		switch {
		case fin == nil:
			s.issueAt(s.terminalAt, "output_index %d (%s) is missing from the %s output", idx, it.id, s.terminal)
		case !sameItem(it.done, fin):
			s.issueAt(s.terminalAt, "output[%d] of %s differs from its response.output_item.done item", idx, s.terminal)
		}
	}
	return it.done, false
}

// markIncomplete flags the blocks of an item that was added but never done:
// they hold only what the deltas built.
func markIncomplete(blocks []traffic.Block) {
	for i := range blocks {
		blocks[i].Incomplete = true
	}
}
