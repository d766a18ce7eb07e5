package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// How a stream is reassembled.
//
// The official accumulators do not merge anything: go-genai's Chat.SendStream
// (chats.go) and google-genai's Chat.send_message_stream (chats.py) append
// every chunk's candidates[0].content to the history as its own "model"
// Content, and count the turn valid only when some chunk carried a
// finishReason. The Gemini thought-signature guide asks that a signature be
// sent back in the part it came in, never merged into or moved to another
// part; a signature may arrive on a trailing part with empty text.
//
// So the codec joins the chunks' parts, per candidate, into one message and
// merges only where a boundary carries nothing: a text part is appended to
// the previous one when both are plain text parts (no signature, no other
// field) with the same thought flag. A part with a signature — such as the
// trailing empty-text one — is never merged with a neighbour (GEM-SIG-004).
//
// Merging loses where each part sat in the per-chunk Contents that go-genai
// and google-genai send back. Every streamed block therefore keeps the path
// of the part it came from, "events[k].candidates[c].content.parts[j]" (k is
// the event index, as in Stream.Offsets and StreamIssue.Event; a merged text
// block keeps its first part's path); StreamOrigin reads it back for checks
// comparing signature positions (GEM-SIG-003).

// event is one chunk of a stream body, before decoding.
type event struct {
	offset int
	data   []byte
}

func sseEvents(body []byte) []event {
	var out []event
	for _, e := range sse.Parse(body) {
		out = append(out, event{offset: e.Offset, data: []byte(e.Data)})
	}
	return out
}

// arrayEvents splits a JSON array of responses into its elements; an
// element cut off by the end of the body is the last event.
func arrayEvents(body []byte) []event {
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []event
	for dec.More() {
		start := int(dec.InputOffset())
		var v json.RawMessage
		err := dec.Decode(&v)
		end := int(dec.InputOffset())
		if err != nil {
			end = len(body)
		}
		raw := body[start:end]
		lead := len(raw) - len(bytes.TrimLeft(raw, " \t\r\n,"))
		out = append(out, event{offset: start + lead, data: bytes.TrimSpace(raw[lead:])})
		if err != nil {
			break
		}
	}
	return out
}

// assembler reassembles a stream's chunks.
type assembler struct {
	resp    *traffic.Response
	st      *traffic.Stream
	cands   map[int]*reply
	finish  map[int]string
	end     int // event that ended the stream (finishReason on every candidate, or a blocked prompt); -1 before
	errAt   int // event carrying an error; -1 when none
	blocked string
}

func decodeStream(events []event) *traffic.Response {
	a := &assembler{
		resp:   &traffic.Response{Wire: traffic.WireGemini, Output: []traffic.Message{}},
		st:     &traffic.Stream{},
		cands:  make(map[int]*reply),
		finish: make(map[int]string),
		end:    -1,
		errAt:  -1,
	}
	for k, e := range events {
		a.st.Events++
		a.st.Offsets = append(a.st.Offsets, e.offset)
		a.event(k, e.data)
	}
	return a.finishUp()
}

func (a *assembler) issue(k int, format string, args ...any) {
	a.st.Issues = append(a.st.Issues, traffic.StreamIssue{Check: traffic.CheckGeminiStream, Event: k, Message: fmt.Sprintf(format, args...)})
}

func (a *assembler) event(k int, data []byte) {
	data = bytes.TrimSpace(data)
	obj, err := parseObject(data, "")
	if err != nil {
		a.issue(k, "event %d: data is not a JSON object: %q", k, body.Excerpt(data, 60))
		return
	}
	switch {
	case a.errAt >= 0:
		a.issue(k, "event %d: chunk after the error chunk (event %d)", k, a.errAt)
	case a.end >= 0:
		a.issue(k, "event %d: chunk after the final chunk (event %d)", k, a.end)
	}
	if obj.value(name{"error", "error"}) != nil {
		if a.st.Error == nil {
			a.st.Error = decodeError(data)
			a.errAt = k
		}
		return
	}
	ch, err := parseChunk(obj, fmt.Sprintf("events[%d].", k))
	if err != nil {
		a.issue(k, "event %d: %v", k, err)
		return
	}
	if len(ch.candidates) == 0 && ch.usage == nil && !ch.feedback {
		a.issue(k, "event %d: chunk has no candidates, usageMetadata or promptFeedback", k)
	}
	if a.resp.ID == "" {
		a.resp.ID = ch.id
	}
	if a.resp.Model == "" {
		a.resp.Model = ch.model
	}
	if ch.usage != nil {
		a.resp.Usage = ch.usage // usage is cumulative: the last one counts
	}
	if ch.blockReason != "" {
		a.blocked = ch.blockReason
	}
	for _, c := range ch.candidates {
		a.add(k, c)
	}
	if a.end < 0 && a.ended() {
		a.end = k
	}
}

// add appends a candidate's parts to what that candidate said so far.
func (a *assembler) add(k int, c candidate) {
	if f := a.finish[c.index]; f != "" && c.parts {
		a.issue(k, "event %d: candidate %d has parts after its finishReason %s", k, c.index, f)
	}
	r, ok := a.cands[c.index]
	if !ok {
		r = &reply{msg: traffic.Message{Role: c.msg.Role, Path: fmt.Sprintf("candidates[%d].content", c.index)}}
		a.cands[c.index] = r
	}
	m := &r.msg
	for key, v := range c.msg.Extra {
		if _, dup := m.Extra[key]; !dup {
			if m.Extra == nil {
				m.Extra = make(map[string]json.RawMessage)
			}
			m.Extra[key] = v
		}
	}
	for _, b := range c.msg.Blocks {
		if n := len(m.Blocks); n > 0 && mergeable(m.Blocks[n-1], b) {
			r.join(b.Text)
			continue
		}
		r.close()
		m.Blocks = append(m.Blocks, b)
	}
	if c.finish != "" && a.finish[c.index] == "" {
		a.finish[c.index] = c.finish
	}
}

// reply is one candidate's message as the chunks build it.
type reply struct {
	msg traffic.Message
	// tail collects the text merged into the last block, so that a long
	// stream of small text parts costs linear time.
	tail    strings.Builder
	joining bool
}

// join appends text to the last block.
func (r *reply) join(text string) {
	if !r.joining {
		r.tail.Reset()
		r.tail.WriteString(r.msg.Blocks[len(r.msg.Blocks)-1].Text)
		r.joining = true
	}
	r.tail.WriteString(text)
}

// close stores the joined text in the last block.
func (r *reply) close() {
	if r.joining {
		r.msg.Blocks[len(r.msg.Blocks)-1].Text = r.tail.String()
		r.joining = false
	}
}

// mergeable reports whether b continues the text of prev (see above).
func mergeable(prev, b traffic.Block) bool {
	plain := func(x traffic.Block) bool {
		return x.WireType == nText.camel && x.Signature == nil && x.Extra == nil
	}
	return plain(prev) && plain(b) && prev.Type == b.Type && prev.Thought == b.Thought
}

// ended reports whether every candidate has finished, or the prompt was
// blocked before any candidate.
func (a *assembler) ended() bool {
	if len(a.cands) == 0 {
		return a.blocked != ""
	}
	for i := range a.cands {
		if a.finish[i] == "" {
			return false
		}
	}
	return true
}

func (a *assembler) finishUp() *traffic.Response {
	idx := make([]int, 0, len(a.cands))
	for i := range a.cands {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for n, i := range idx {
		a.cands[i].close()
		msg := a.cands[i].msg
		if a.finish[i] == "" {
			a.st.Partial = append(a.st.Partial, n) // never got its finishReason
			for p := range msg.Blocks {
				msg.Blocks[p].Incomplete = true
			}
		}
		a.resp.Output = append(a.resp.Output, msg)
	}
	if len(idx) > 0 {
		a.resp.StopReason = a.finish[idx[0]]
	} else {
		a.resp.StopReason = a.blocked
	}
	a.resp.Error = a.st.Error
	a.st.Complete = a.end >= 0 && a.st.Error == nil
	a.st.Truncated = a.end < 0 && a.st.Error == nil
	a.resp.Stream = a.st
	return a.resp
}
