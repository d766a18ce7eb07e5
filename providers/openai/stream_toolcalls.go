package openai

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// maxIndexGrowth bounds how far one fragment's index may jump past the
// calls (or choices) seen so far, as openai-go bounds it, so a hostile index
// cannot make the reassembly allocate without limit.
const maxIndexGrowth = 128

// callState is one tool call being reassembled from its fragments.
type callState struct {
	id, typ, name string
	args          strings.Builder
	extra         map[string]json.RawMessage
}

// toolCall adds one tool_calls fragment to choice cs. Fragments are grouped
// by "index"; id, type and name come from the first fragment of an index and
// arguments are concatenated, as the SDK does. What real hosts get wrong is
// reported as OAI-STREAM-001 issues.
func (r *reassembly) toolCall(ev, choice int, cs *choiceState, j int, frag json.RawMessage) {
	var fields map[string]json.RawMessage
	if rawjson.Kind(frag) != "object" || json.Unmarshal(frag, &fields) != nil {
		r.issue(ev, "choice %d tool_calls[%d]: expected an object, found %s", choice, j, rawjson.Describe(frag))
		return
	}
	var (
		idx              = -2 // no index
		id, typ, name    string
		args             strings.Builder
		hasArgs, badArgs bool
		extra            map[string]json.RawMessage
	)
	for key, v := range fields {
		switch key {
		case "index":
			var n int
			if rawjson.IsNull(v) {
				continue // read as missing
			}
			if json.Unmarshal(v, &n) != nil {
				r.issue(ev, "choice %d tool_calls[%d]: index is %s, not an integer", choice, j, rawjson.Describe(v))
				return
			}
			idx = n
		case "id":
			id, _ = rawjson.String(v)
		case "type":
			typ, _ = rawjson.String(v)
		case "function":
			var fn struct {
				Name      json.RawMessage `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if json.Unmarshal(v, &fn) != nil {
				rawjson.SetExtra(&extra, key, v)
				continue
			}
			name, _ = rawjson.String(fn.Name)
			if len(fn.Arguments) > 0 && !rawjson.IsNull(fn.Arguments) {
				hasArgs = true
				if s, ok := rawjson.String(fn.Arguments); ok {
					args.WriteString(s)
				} else {
					badArgs = true
					args.Write(rawjson.Compact(fn.Arguments))
				}
			}
		default:
			rawjson.SetExtra(&extra, key, v)
		}
	}

	switch {
	case idx == -2:
		idx = r.guessIndex(cs, id)
		r.issue(ev, "choice %d tool_calls[%d] has no index; read as tool call %d", choice, j, idx)
	case idx == -1: // openai-go reads -1 (Bedrock) as 0
		idx = 0
		r.issue(ev, "choice %d tool_calls[%d] has index -1; openai-go reads it as 0", choice, j)
	case idx < 0 || idx > len(cs.calls)+maxIndexGrowth:
		r.issue(ev, "choice %d tool_calls[%d]: index %d is out of range", choice, j, idx)
		return
	case idx > len(cs.calls):
		r.issue(ev, "choice %d tool call index %d skips index %d", choice, idx, len(cs.calls))
	}
	if badArgs {
		r.issue(ev, "choice %d tool call %d: function.arguments is not a string", choice, idx)
	}
	for len(cs.calls) <= idx {
		cs.calls = append(cs.calls, nil)
	}
	cs.lastCall = idx
	c := cs.calls[idx]
	if c == nil {
		c = &callState{id: id, typ: typ, name: name}
		cs.calls[idx] = c
		if id == "" || name == "" {
			r.issue(ev, "choice %d tool call %d starts without %s", choice, idx, missing(id, name))
		}
	} else {
		c.id = keepFirst(r, ev, choice, idx, "id", c.id, id)
		c.name = keepFirst(r, ev, choice, idx, "name", c.name, name)
		if c.typ == "" {
			c.typ = typ
		}
	}
	if hasArgs {
		c.args.WriteString(args.String())
	}
	for k, v := range extra {
		rawjson.SetExtra(&c.extra, k, v)
	}
}

// guessIndex places a fragment that has no index: a new call when it brings
// a new id, otherwise the call of the previous fragment.
func (r *reassembly) guessIndex(cs *choiceState, id string) int {
	if len(cs.calls) == 0 {
		return 0
	}
	if id != "" {
		if last := cs.calls[cs.lastCall]; last != nil && last.id != "" && last.id != id {
			return len(cs.calls)
		}
	}
	return cs.lastCall
}

// keepFirst returns the value a later fragment may not change: the first
// one, reporting a different later one; a value missing at first is filled in.
func keepFirst(r *reassembly, ev, choice, idx int, what, first, later string) string {
	switch {
	case later == "" || later == first:
		return first
	case first == "":
		return later
	}
	r.issue(ev, "choice %d tool call %d: %s changes from %q to %q", choice, idx, what, first, later)
	return first
}

func missing(id, name string) string {
	switch {
	case id == "" && name == "":
		return "id and name"
	case id == "":
		return "id"
	}
	return "name"
}

// block is the reassembled call, shaped like a decoded non-streamed call:
// Input is the JSON string token of the concatenated arguments, the call's
// type and any other fields (Gemini's extra_content…) are in Extra.
func (c *callState) block(path string) traffic.Block {
	b := traffic.Block{
		Type:     traffic.BlockToolCall,
		WireType: c.typ,
		Path:     path,
		ID:       c.id,
		Name:     c.name,
		Input:    rawjson.Quote(c.args.String()),
	}
	for k, v := range c.extra {
		rawjson.SetExtra(&b.Extra, k, v)
	}
	if c.typ != "" {
		rawjson.SetExtra(&b.Extra, "type", rawjson.Quote(c.typ))
	}
	return b
}
