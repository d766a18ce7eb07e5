package responses

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/traffic"
)

// The Responses checks judge each request's input against the output items
// that earlier responses of the cassette produced. Item ids (rs_, fc_, msg_)
// and call ids are unique across conversations, so one index keyed by id
// serves every conversation a cassette interleaves, and looking an echoed
// item up is one map access: the walk stays linear in the traffic.

// source is one output item a recorded response produced.
type source struct {
	exchange int              // interaction whose response produced it
	at       int              // its position in the traffic
	output   int              // its index in that response's output
	item     *traffic.Message // the output item
	next     *traffic.Message // the output item right after it; nil when it was last
	// reasoning is the id of the nearest reasoning item before this one in
	// the same output: the reasoning a function_call was produced after.
	reasoning string
	// partial is true when a stream started the item but never sent its
	// response.output_item.done, so what was built is incomplete.
	partial bool
	route   callRoute // where the producing call went
	model   string    // the model that produced it, as the request named it
}

// index looks up what the responses before one request produced, in the
// origin index: the latest producer of an id wins.
type index struct {
	x      *origin.Index
	before int // the judged request's exchange: only earlier responses count
}

// item is the output item with the given id, or nil.
func (idx index) item(id string) *source {
	o, ok := idx.x.Last(traffic.WireResponses, origin.Item, id, idx.before)
	if !ok {
		return nil
	}
	return idx.originOf(o)
}

// call is the function_call item with the given call_id, or nil.
func (idx index) call(id string) *source {
	o, ok := idx.x.Last(traffic.WireResponses, origin.Call, id, idx.before)
	if !ok || callOf(idx.x.Message(o)) == nil {
		return nil
	}
	return idx.originOf(o)
}

// response returns the function_call blocks of the response with the given
// id, and whether such a response was recorded.
func (idx index) response(id string) ([]*traffic.Block, bool) {
	o, ok := idx.x.Last(traffic.WireResponses, origin.Response, id, idx.before)
	if !ok {
		return nil, false
	}
	var calls []*traffic.Block
	for k := range idx.x.Exchange(o).Response.Output {
		if b := callOf(&idx.x.Exchange(o).Response.Output[k]); b != nil {
			calls = append(calls, b)
		}
	}
	return calls, true
}

// originOf describes the output item o is part of.
func (idx index) originOf(o origin.Origin) *source {
	ex := idx.x.Exchange(o)
	out := ex.Response.Output
	r := &source{exchange: ex.Index, at: o.Exchange, output: o.Output, item: &out[o.Output], route: routeOf(ex)}
	if ex.Request != nil {
		r.model = ex.Request.Model
	}
	if r.model == "" {
		r.model = ex.Response.Model
	}
	if o.Output+1 < len(out) {
		r.next = &out[o.Output+1]
	}
	for k := o.Output - 1; k >= 0; k-- {
		if out[k].WireType == "reasoning" {
			r.reasoning = origin.ItemID(&out[k])
			break
		}
	}
	if st := ex.Response.Stream; st != nil {
		r.partial = slices.Contains(st.Partial, o.Output)
	}
	return r
}

// walk calls judge for every decoded Responses request whose findings
// are wanted (check.Traffic.WantedFrom), in cassette order, with the index
// of everything earlier responses produced.
func walk(tr *check.Traffic, judge func(ex *traffic.Exchange, req *traffic.Request, idx index)) {
	walkFrom(tr, tr.WantedFrom(), judge)
}

// walkAll is walk over every request judged, for a check that
// reports each call once, at the first request that sends it: in a live
// judgement it must see the requests before the last too.
func walkAll(tr *check.Traffic, judge func(ex *traffic.Exchange, req *traffic.Request, idx index)) {
	walkFrom(tr, tr.From, judge)
}

func walkFrom(tr *check.Traffic, from int, judge func(ex *traffic.Exchange, req *traffic.Request, idx index)) {
	x := origin.Of(tr)
	for i := from; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire == traffic.WireResponses && ex.Request != nil {
			judge(ex, ex.Request, index{x: x, before: i})
		}
	}
}

// callOf returns the function_call block of an item, or nil.
func callOf(m *traffic.Message) *traffic.Block {
	if m.WireType != "function_call" || len(m.Blocks) != 1 || m.Blocks[0].Type != traffic.BlockToolCall {
		return nil
	}
	return &m.Blocks[0]
}

// outputOf returns the function_call_output block of an item, or nil.
func outputOf(m *traffic.Message) *traffic.Block {
	if m.WireType != "function_call_output" || len(m.Blocks) != 1 || m.Blocks[0].Type != traffic.BlockToolResult {
		return nil
	}
	return &m.Blocks[0]
}

// reasoningOf returns the reasoning block of an item, or nil.
func reasoningOf(m *traffic.Message) *traffic.Block {
	if m.WireType != "reasoning" || len(m.Blocks) != 1 || m.Blocks[0].Type != traffic.BlockReasoning {
		return nil
	}
	return &m.Blocks[0]
}

// isMessage reports whether an item is a message (typed, or the
// easy-input {role, content} form).
func isMessage(m *traffic.Message) bool {
	return m.WireType == "message" || (m.WireType == "" && m.Role != "")
}

// view is what a finding's diff shows of an item.
type view struct {
	Type   string
	ID     string
	Role   string
	CallID string
	Text   string
}

func viewOf(m *traffic.Message) view {
	v := view{Type: m.WireType, ID: origin.ItemID(m)}
	if v.Type == "" {
		v.Type = "message"
	}
	if isMessage(m) {
		v.Role = string(m.Role)
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		if b.ID != "" {
			v.CallID = b.ID
		}
		if b.ToolCallID != "" {
			v.CallID = b.ToolCallID
		}
		if b.Type == traffic.BlockText && v.Text == "" {
			v.Text = b.Text
		}
	}
	return v
}

// describe names an item for a message: its kind, id and a little text.
func describe(m *traffic.Message) string {
	v := viewOf(m)
	var b strings.Builder
	if v.Role != "" {
		b.WriteString(v.Role + " ")
	}
	b.WriteString(v.Type)
	if v.ID != "" {
		b.WriteString(" " + v.ID)
	} else if v.Role == string(traffic.RoleAssistant) || v.Type == "reasoning" || v.Type == "function_call" {
		b.WriteString(" without an id")
	}
	if v.CallID != "" {
		b.WriteString(" (call_id " + v.CallID + ")")
	}
	if v.Text != "" {
		fmt.Fprintf(&b, " %q", show.Clip(v.Text, 40))
	}
	return b.String()
}

// reasoningWithoutID finds the output item a reasoning item echoed without
// an id (as Ruby and Python SDK users send them) came from: the reasoning
// right before the function call that follows it in the input, by that
// call's call_id; else the reasoning item whose summary it repeats. how says
// which, for the finding.
func (idx index) reasoningWithoutID(in []traffic.Message, i int) (src *source, how string) {
	if i+1 < len(in) {
		if c := callOf(&in[i+1]); c != nil && c.ID != "" {
			if call := idx.call(c.ID); call != nil {
				if r := idx.reasoningBefore(call); r != nil {
					return r, "by the function call " + c.ID + " that follows it"
				}
			}
		}
	}
	if rb := reasoningOf(&in[i]); rb != nil && rb.Text != "" {
		if o, ok := idx.x.Last(traffic.WireResponses, origin.Thinking, rb.Text, idx.before); ok {
			return idx.originOf(o), "by its summary"
		}
	}
	return nil, ""
}

// reasoningBefore is the reasoning item right before o in o's output, or nil.
func (idx index) reasoningBefore(o *source) *source {
	out := idx.x.Exchange(origin.Origin{Exchange: o.at}).Response.Output
	for k := o.output - 1; k >= 0; k-- {
		if reasoningOf(&out[k]) != nil {
			return idx.originOf(origin.Origin{Exchange: o.at, Wire: traffic.WireResponses, Output: k, Block: -1})
		}
		if callOf(&out[k]) == nil {
			break // reasoning is followed by its call, or calls in parallel
		}
	}
	return nil
}
