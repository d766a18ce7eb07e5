package responses

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// The Responses checks judge each request's input against the output items
// that earlier responses of the cassette produced. Item ids (rs_, fc_, msg_)
// and call ids are unique across conversations, so one index keyed by id
// serves every conversation a cassette interleaves, and looking an echoed
// item up is one map access: the walk stays linear in the traffic.

// rspOrigin is one output item a recorded response produced.
type rspOrigin struct {
	exchange int             // interaction whose response produced it
	item     *engine.Message // the output item
	next     *engine.Message // the output item right after it; nil when it was last
	// reasoning is the id of the nearest reasoning item before this one in
	// the same output: the reasoning a function_call was produced after.
	reasoning string
	// partial is true when a stream started the item but never sent its
	// response.output_item.done, so what was built is incomplete.
	partial bool
	route   rspRoute // where the producing call went
}

// rspIndex holds the output items of every response seen so far.
type rspIndex struct {
	items     map[string]*rspOrigin      // by item id
	calls     map[string]*rspOrigin      // function_call items by call_id
	responses map[string][]*engine.Block // response id → its function_call blocks
}

func newRspIndex() *rspIndex {
	return &rspIndex{
		items:     map[string]*rspOrigin{},
		calls:     map[string]*rspOrigin{},
		responses: map[string][]*engine.Block{},
	}
}

// add indexes the output items of ex's response.
func (x *rspIndex) add(ex *engine.Exchange) {
	resp := ex.Response
	if resp == nil {
		return
	}
	var partial []int
	if resp.Stream != nil {
		partial = resp.Stream.Partial
	}
	var calls []*engine.Block
	reasoning, route := "", rspRouteOf(ex)
	for k := range resp.Output {
		m := &resp.Output[k]
		o := &rspOrigin{exchange: ex.Index, item: m, reasoning: reasoning, partial: slices.Contains(partial, k), route: route}
		if k+1 < len(resp.Output) {
			o.next = &resp.Output[k+1]
		}
		if id := rspItemID(m); id != "" {
			x.items[id] = o
		}
		if m.WireType == "reasoning" {
			reasoning = rspItemID(m)
		}
		if b := rspCall(m); b != nil {
			calls = append(calls, b)
			if b.ID != "" {
				x.calls[b.ID] = o
			}
		}
	}
	if resp.ID != "" {
		x.responses[resp.ID] = calls
	}
}

// rspWalk calls judge for every decoded Responses request in cassette order,
// with the index of everything earlier responses produced; the exchange's
// own response is indexed after its request is judged.
func rspWalk(tr *check.Traffic, judge func(ex *engine.Exchange, req *engine.Request, idx *rspIndex)) {
	idx := newRspIndex()
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if ex.Wire != engine.WireResponses {
			continue
		}
		if ex.Request != nil {
			judge(ex, ex.Request, idx)
		}
		idx.add(ex)
	}
}

// rspItemID returns an item's own id (msg_…, rs_…, fc_…), as
// responses.ItemID does, without decoding plain id tokens.
func rspItemID(m *engine.Message) string {
	if raw, ok := m.Extra["id"]; ok {
		s, _ := rawjson.String(raw)
		return s
	}
	for _, b := range m.Blocks {
		if b.ItemID != "" {
			return b.ItemID
		}
	}
	return ""
}

// rspCall returns the function_call block of an item, or nil.
func rspCall(m *engine.Message) *engine.Block {
	if m.WireType != "function_call" || len(m.Blocks) != 1 || m.Blocks[0].Type != engine.BlockToolCall {
		return nil
	}
	return &m.Blocks[0]
}

// rspOutput returns the function_call_output block of an item, or nil.
func rspOutput(m *engine.Message) *engine.Block {
	if m.WireType != "function_call_output" || len(m.Blocks) != 1 || m.Blocks[0].Type != engine.BlockToolResult {
		return nil
	}
	return &m.Blocks[0]
}

// rspReasoning returns the reasoning block of an item, or nil.
func rspReasoning(m *engine.Message) *engine.Block {
	if m.WireType != "reasoning" || len(m.Blocks) != 1 || m.Blocks[0].Type != engine.BlockReasoning {
		return nil
	}
	return &m.Blocks[0]
}

// rspIsMessage reports whether an item is a message (typed, or the
// easy-input {role, content} form).
func rspIsMessage(m *engine.Message) bool {
	return m.WireType == "message" || (m.WireType == "" && m.Role != "")
}

// rspView is what a finding's diff shows of an item.
type rspView struct {
	Type   string
	ID     string
	Role   string
	CallID string
	Text   string
}

func rspViewOf(m *engine.Message) rspView {
	v := rspView{Type: m.WireType, ID: rspItemID(m)}
	if v.Type == "" {
		v.Type = "message"
	}
	if rspIsMessage(m) {
		v.Role = string(m.Role)
	}
	for _, b := range m.Blocks {
		if b.ID != "" {
			v.CallID = b.ID
		}
		if b.ToolCallID != "" {
			v.CallID = b.ToolCallID
		}
		if b.Type == engine.BlockText && v.Text == "" {
			v.Text = b.Text
		}
	}
	return v
}

// rspDescribe names an item for a message: its kind, id and a little text.
func rspDescribe(m *engine.Message) string {
	v := rspViewOf(m)
	var b strings.Builder
	if v.Role != "" {
		b.WriteString(v.Role + " ")
	}
	b.WriteString(v.Type)
	if v.ID != "" {
		b.WriteString(" " + v.ID)
	} else if v.Role == string(engine.RoleAssistant) || v.Type == "reasoning" || v.Type == "function_call" {
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
