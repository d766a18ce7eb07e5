package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// chunk is the part of a chat.completion.chunk the reassembly reads. Other
// fields (object, created, system_fingerprint, obfuscation…) are ignored, as
// the SDK ignores them.
type chunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Choices []chunkChoice   `json:"choices"`
	Usage   json.RawMessage `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type chunkChoice struct {
	Index        *int    `json:"index"`
	FinishReason *string `json:"finish_reason"`
	Delta        struct {
		Role             string            `json:"role"`
		Content          json.RawMessage   `json:"content"` // a string, or Mistral's list of text and thinking parts
		Refusal          *string           `json:"refusal"`
		ReasoningContent *string           `json:"reasoning_content"`
		Reasoning        *string           `json:"reasoning"`
		ReasoningDetails []json.RawMessage `json:"reasoning_details"` // OpenRouter
		ToolCalls        []json.RawMessage `json:"tool_calls"`
		FunctionCall     *struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function_call"`
	} `json:"delta"`
}

// reassembly is the state of one stream being put back together the way
// openai-go's ChatCompletionAccumulator does it: content and refusal
// concatenated per choice, tool calls grouped by index with their arguments
// concatenated, the last finish_reason and usage kept.
type reassembly struct {
	resp    *traffic.Response
	st      *traffic.Stream
	id      string
	choices map[int]*choiceState
	done    bool
	// framed is false for chunks kept as JSON lines: the recorder stored
	// each chunk's data without the SSE framing, so data: [DONE] was never
	// kept and the end of the stream is read from the finish reasons.
	framed bool
}

type choiceState struct {
	role, finish     string
	content, refusal strings.Builder
	// reasoning_content (DeepSeek, Moonshot) and reasoning (Groq,
	// OpenRouter) deltas; the SDK ignores both.
	reasoningContent, reasoning       strings.Builder
	sawReasoningContent, sawReasoning bool
	details                           map[int]*detailState // OpenRouter reasoning_details, by index
	calls                             []*callState         // by tool-call index; nil for a skipped index
	lastCall                          int                  // index of the last fragment, for fragments without one
	function                          *callState           // legacy streamed function_call
}

// decodeStream reassembles a chat completions event stream; framed says
// whether the events kept their SSE framing (see reassembly.framed).
func decodeStream(events []sse.Event, framed bool) *traffic.Response {
	r := &reassembly{
		framed:  framed,
		resp:    &traffic.Response{Wire: traffic.WireOpenAI, Output: []traffic.Message{}},
		st:      &traffic.Stream{Events: len(events), Offsets: make([]int, 0, len(events))},
		choices: map[int]*choiceState{},
	}
	r.resp.Stream = r.st
	for i, ev := range events {
		r.st.Offsets = append(r.st.Offsets, ev.Offset)
		r.event(i, ev)
	}
	r.finish(len(events))
	return r.resp
}

func (r *reassembly) issue(event int, format string, args ...any) {
	r.st.Issues = append(r.st.Issues, traffic.StreamIssue{Check: traffic.CheckChatStream, Event: event, Message: fmt.Sprintf(format, args...)})
}

// tolerated records an issue openai-go reads past.
func (r *reassembly) tolerated(event int, format string, args ...any) {
	r.issue(event, format, args...)
	r.st.Issues[len(r.st.Issues)-1].Tolerated = true
}

// event handles one SSE event. Like the SDK, anything after [DONE] or after
// an error is not accumulated; unlike the SDK, a bad payload is an issue and
// the stream goes on, so later facts are still seen.
func (r *reassembly) event(i int, ev sse.Event) {
	data := bytes.TrimSpace([]byte(ev.Data))
	if r.st.Error != nil {
		return
	}
	if r.done {
		r.tolerated(i, "event after [DONE]: %s", body.Excerpt(data, 120))
		return
	}
	if bytes.HasPrefix(data, []byte("[DONE]")) {
		r.done = true
		return
	}
	var c chunk
	err := json.Unmarshal(data, &c)
	var syn *json.SyntaxError
	if rawjson.Kind(data) != "object" || errors.As(err, &syn) {
		r.issue(i, "data is not a JSON object: %q", body.Excerpt(data, 120))
		return
	}
	if err != nil {
		if !r.streamError(data) {
			r.issue(i, "chunk is not a chat.completion.chunk: %v", err)
		}
		return
	}
	if len(c.Error) > 0 && !rawjson.IsNull(c.Error) {
		r.st.Error = decodeAPIError(c.Error)
		r.resp.Error = r.st.Error
		return
	}
	// openai-go rejects a chunk whose id differs from the stream's.
	if c.ID != "" && r.id != "" && c.ID != r.id {
		r.tolerated(i, "chunk id %q differs from the stream's id %q; openai-go drops this chunk", c.ID, r.id)
		return
	}
	if r.id == "" && c.ID != "" {
		r.id = c.ID
		r.resp.ID = c.ID
	}
	if c.Model != "" {
		r.resp.Model = c.Model
	}
	// The last usage is kept. The SDK adds usages up, which is the same for
	// hosts that send one and wrong for those that send running totals.
	if len(c.Usage) > 0 && !rawjson.IsNull(c.Usage) {
		r.resp.Usage = decodeUsage(c.Usage)
	}
	for _, ch := range c.Choices {
		r.choice(i, ch)
	}
}

// streamError catches an error payload whose other fields do not fit the
// chunk shape.
func (r *reassembly) streamError(data []byte) bool {
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &e) != nil || len(e.Error) == 0 || rawjson.IsNull(e.Error) {
		return false
	}
	r.st.Error = decodeAPIError(e.Error)
	r.resp.Error = r.st.Error
	return true
}

// content adds a delta's content: a string, or the list of parts Mistral
// streams, whose text parts are content and whose thinking parts (each a
// list of text parts) are reasoning.
func (r *reassembly) content(i, choice int, cs *choiceState, raw json.RawMessage) {
	if s, ok := rawjson.String(raw); ok {
		cs.content.WriteString(s)
		return
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		r.issue(i, "choice %d delta.content: expected a string or a list of parts, found %s", choice, rawjson.Describe(raw))
		return
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			cs.content.WriteString(p.Text)
		case "thinking":
			var inner []struct {
				Text string `json:"text"`
			}
			if s, ok := rawjson.String(p.Thinking); ok {
				cs.reasoning.WriteString(s)
			} else if json.Unmarshal(p.Thinking, &inner) == nil {
				for _, t := range inner {
					cs.reasoning.WriteString(t.Text)
				}
			}
			cs.sawReasoning = true
		}
	}
}

// choice adds one choice delta.
func (r *reassembly) choice(i int, ch chunkChoice) {
	idx := 0
	if ch.Index != nil {
		idx = *ch.Index
	}
	if idx < 0 || idx > maxIndexGrowth+len(r.choices) {
		r.issue(i, "choice index %d is out of range", idx)
		return
	}
	cs := r.choices[idx]
	if cs == nil {
		cs = &choiceState{}
		r.choices[idx] = cs
	}
	d := ch.Delta
	if d.Role != "" {
		cs.role = d.Role
	}
	if len(d.Content) > 0 && !rawjson.IsNull(d.Content) {
		r.content(i, idx, cs, d.Content)
	}
	if d.Refusal != nil {
		cs.refusal.WriteString(*d.Refusal)
	}
	if d.ReasoningContent != nil {
		cs.reasoningContent.WriteString(*d.ReasoningContent)
		cs.sawReasoningContent = true
	}
	if d.Reasoning != nil {
		cs.reasoning.WriteString(*d.Reasoning)
		cs.sawReasoning = true
	}
	if len(d.ReasoningDetails) > 0 {
		cs.addDetails(d.ReasoningDetails)
	}
	if fc := d.FunctionCall; fc != nil {
		if cs.function == nil {
			cs.function = &callState{}
		}
		cs.function.name += fc.Name
		cs.function.args.WriteString(fc.Arguments)
	}
	for j, frag := range d.ToolCalls {
		r.toolCall(i, idx, cs, j, frag)
	}
	// The SDK overwrites finish_reason with every chunk, so a host that sends
	// a null finish_reason after the real one (OpenRouter's usage chunk) would
	// lose it; the last non-null value is kept here.
	if ch.FinishReason != nil && *ch.FinishReason != "" {
		cs.finish = *ch.FinishReason
	}
}

// finish checks the end of the stream and builds the Output messages.
// End-of-stream issues name the last event; a missing [DONE] names the
// position where it should have been.
func (r *reassembly) finish(events int) {
	last := max(events-1, 0)
	switch {
	case r.st.Error != nil:
		// The error event ends the stream: it is not complete, and not cut off.
	case r.done:
		r.st.Complete = true
	case !r.framed && r.finished():
		r.st.Complete = true
	case !r.framed:
		r.st.Truncated = true
		r.issue(events, "stream ended before every choice had a finish_reason (chunks kept as JSON lines, without the SSE framing that carries data: [DONE])")
		r.st.Issues[len(r.st.Issues)-1].Truncation = true
	default:
		r.st.Truncated = true
		r.issue(events, "stream ended without data: [DONE]")
		r.st.Issues[len(r.st.Issues)-1].Truncation = true
	}
	keys := make([]int, 0, len(r.choices))
	for k := range r.choices {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		cs := r.choices[k]
		if r.done && r.st.Error == nil && cs.finish == "" {
			r.tolerated(last, "choice %d ended without a finish_reason", k)
		}
		if cs.finish == "tool_calls" && !cs.hasCalls() {
			r.issue(last, "choice %d finished with tool_calls but streamed no tool call", k)
		}
		r.resp.Output = append(r.resp.Output, r.message(k, cs, last))
	}
	if cs := r.choices[0]; cs != nil {
		r.resp.StopReason = cs.finish
	}
}

func (cs *choiceState) hasCalls() bool {
	for _, c := range cs.calls {
		if c != nil {
			return true
		}
	}
	return false
}

// message builds the reassembled message of one choice, shaped like the
// message of a non-streamed response: reasoning first, then text, then tool calls.
func (r *reassembly) message(k int, cs *choiceState, last int) traffic.Message {
	path := rawjson.At(rawjson.Index("choices", k), "message")
	m := traffic.Message{Role: traffic.RoleAssistant, Path: path, Blocks: []traffic.Block{}}
	if cs.role != "" {
		m.Role = traffic.Role(cs.role)
	}
	if cs.sawReasoningContent {
		m.Blocks = append(m.Blocks, traffic.Block{Type: traffic.BlockThinking, WireType: wireReasoningContent, Path: rawjson.At(path, wireReasoningContent), Text: cs.reasoningContent.String()})
	}
	if cs.sawReasoning {
		m.Blocks = append(m.Blocks, traffic.Block{Type: traffic.BlockThinking, WireType: wireReasoning, Path: rawjson.At(path, wireReasoning), Text: cs.reasoning.String()})
	}
	if cs.content.Len() > 0 {
		m.ContentString = true
		m.Blocks = append(m.Blocks, traffic.Block{Type: traffic.BlockText, Path: rawjson.At(path, "content"), Text: cs.content.String()})
	} else {
		m.ContentNull = true
	}
	if cs.refusal.Len() > 0 {
		rawjson.SetExtra(&m.Extra, "refusal", rawjson.Quote(cs.refusal.String()))
	}
	if len(cs.details) > 0 {
		rawjson.SetExtra(&m.Extra, "reasoning_details", cs.detailsJSON())
	}
	if f := cs.function; f != nil {
		var o rawjson.Object
		o.String("name", f.name)
		o.Raw("arguments", rawjson.Quote(f.args.String()))
		rawjson.SetExtra(&m.Extra, "function_call", o.Bytes())
	}
	n := 0
	for j, c := range cs.calls {
		if c == nil {
			continue
		}
		b := c.block(rawjson.Index(rawjson.At(path, "tool_calls"), n))
		// A call of a choice the stream cut before its finish_reason may
		// hold half its arguments.
		b.Incomplete = cs.finish == "" && !r.st.Complete
		n++
		if args := c.args.String(); args != "" && !rawjson.Valid([]byte(args)) {
			r.issue(last, "choice %d tool call %d (%s) arguments are not valid JSON: %q", k, j, c.id, body.Excerpt([]byte(args), 120))
		}
		m.Blocks = append(m.Blocks, b)
	}
	return m
}

// finished reports whether the stream has a choice and every choice has
// its finish_reason: how a stream kept without its framing shows its end.
func (r *reassembly) finished() bool {
	for _, cs := range r.choices {
		if cs.finish == "" {
			return false
		}
	}
	return len(r.choices) > 0
}
