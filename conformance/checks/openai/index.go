package openai

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// source is one tool call a recorded chat response produced.
type source struct {
	exchange int
	call     *traffic.Block
	message  *traffic.Message // the assistant message that carried it
	// unfinished is true when the response was a stream that never reached
	// its terminal chunk, so the call's arguments may be incomplete.
	unfinished bool
}

// walk calls judge for every decoded chat request whose findings are
// wanted (check.Traffic.WantedFrom), in cassette order, with a lookup of
// the tool calls earlier responses produced, by call id (the origin
// index). Call ids are unique per response, so one index serves every
// interleaved conversation; client-authored calls (no earlier response)
// are simply not in it.
func walk(tr *check.Traffic, judge func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source)) {
	walkFrom(tr, tr.WantedFrom(), judge)
}

// walkAll is walk over every request judged, for a check that
// reports each call once, at the first request that sends it: in a live
// judgement it must see the requests before the last too.
func walkAll(tr *check.Traffic, judge func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source)) {
	walkFrom(tr, tr.From, judge)
}

func walkFrom(tr *check.Traffic, from int, judge func(ex *traffic.Exchange, req *traffic.Request, origins func(id string) *source)) {
	x := origin.Of(tr)
	for i := from; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire != traffic.WireOpenAI || ex.Request == nil {
			continue
		}
		judge(ex, ex.Request, func(id string) *source {
			o, ok := x.Last(traffic.WireOpenAI, origin.Call, id, i)
			if !ok {
				return nil
			}
			from := x.Exchange(o)
			st := from.Response.Stream
			return &source{exchange: from.Index, call: x.Block(o), message: x.Message(o), unfinished: st != nil && !st.Complete}
		})
	}
}

// callsOf returns the tool-call blocks of a message.
func callsOf(m *traffic.Message) []*traffic.Block {
	var out []*traffic.Block
	for j := range m.Blocks {
		if m.Blocks[j].Type == traffic.BlockToolCall {
			out = append(out, &m.Blocks[j])
		}
	}
	return out
}

// result returns the tool-result block of a tool message, or nil.
func result(m *traffic.Message) *traffic.Block {
	if m.Role != traffic.RoleTool {
		return nil
	}
	for j := range m.Blocks {
		if m.Blocks[j].Type == traffic.BlockToolResult {
			return &m.Blocks[j]
		}
	}
	return nil
}

// reasoning returns the reasoning_content block of a message, or nil.
func reasoning(m *traffic.Message) *traffic.Block {
	for j := range m.Blocks {
		if b := &m.Blocks[j]; b.Type == traffic.BlockThinking && b.WireType == "reasoning_content" {
			return b
		}
	}
	return nil
}

// resultText is what a tool message tells the model: its string
// content, or its text parts joined.
func resultText(b *traffic.Block) string {
	if b.Text != "" {
		return b.Text
	}
	var parts []string
	for _, p := range b.Content {
		if p.Type == traffic.BlockText {
			parts = append(parts, p.Text)
		}
	}
	return strings.Join(parts, "")
}

// arguments decodes a tool call's arguments token to the string the
// model wrote; a token that is not a JSON string is compared as it is.
func arguments(raw []byte) string {
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	return string(raw)
}

// roleOf names a message for findings: "user message messages[4]".
func roleOf(m *traffic.Message) string {
	return string(m.Role) + " message " + m.Path
}
