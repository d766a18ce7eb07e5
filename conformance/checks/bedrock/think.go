package bedrock

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/traffic"
)

func reasoning(b *traffic.Block) bool {
	return b.Type == traffic.BlockThinking || b.Type == traffic.BlockRedacted
}

// judgeReasoningUnchanged ties each echoed reasoning block to the response block that
// produced it (by signature, else by text, else by its place in the message
// whose toolUse the response made) and compares them. A fault is reported
// once, at the request that first carries it.
func judgeReasoningUnchanged(tr *check.Traffic, r *check.Reporter) {
	x := origin.Of(tr)
	reported := map[string]bool{}
	report := func(i int, b *traffic.Block, key, diffText, format string, args ...any) {
		if reported[key] {
			return
		}
		reported[key] = true
		r.Add(i, "request."+b.Path, format, args...).Diff = diffText
	}
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		for k := range req.Messages {
			m := &req.Messages[k]
			if m.Role != traffic.RoleAssistant {
				continue
			}
			echoOf := echoedResponse(x, m, i)
			nth := 0
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if !reasoning(b) {
					continue
				}
				orig, at := originOf(x, b, echoOf, nth, i)
				nth++
				if orig != nil && tr.From > 0 && unseenToken(x, b, i) && !sameBytes(orig.Signature, b.Signature) {
					// A live judgement leaves out the calls before From: a
					// token produced there has no origin in view, and a
					// block guessed by text or place with another token
					// (not the same bytes spelled again) is another block's.
					continue
				}
				if orig == nil {
					continue
				}
				switch {
				case b.Type != orig.Type:
					report(i, b, "type"+b.Path+string(b.Signature)+string(b.Data), "",
						"reasoning block is %s where interaction %d produced %s", kind(b), at, kind(orig))
				case b.Type == traffic.BlockRedacted && string(b.Data) != string(orig.Data):
					report(i, b, "data"+string(b.Data), diff.Bytes(orig.Data, b.Data),
						"redactedContent differs from the one interaction %d produced", at)
				case b.Type == traffic.BlockThinking && len(b.Signature) > 0 && string(b.Signature) != string(orig.Signature):
					report(i, b, "sig"+string(b.Signature), diff.Bytes(orig.Signature, b.Signature),
						"reasoning signature differs from the one interaction %d produced", at)
				case b.Type == traffic.BlockThinking && b.Text != orig.Text:
					report(i, b, "text"+string(b.Signature)+b.Text, diff.Bytes([]byte(orig.Text), []byte(b.Text)),
						"reasoning text differs from what interaction %d produced (its signature covers the text)", at)
				}
			}
		}
	})
}

func kind(b *traffic.Block) string {
	if b.Type == traffic.BlockRedacted {
		return "redactedContent"
	}
	return "reasoningText"
}

// echoedResponse is the response output message that an assistant message
// echoes, found by one of its toolUse ids or reasoning signatures; nil when
// the message has no recorded origin.
func echoedResponse(x *origin.Index, m *traffic.Message, before int) *origin.Origin {
	for _, b := range m.Blocks {
		var o origin.Origin
		var ok bool
		switch {
		case b.Type == traffic.BlockToolCall && b.ID != "":
			o, ok = x.Last(traffic.WireBedrock, origin.Call, b.ID, before)
		case reasoning(&b) && len(b.Signature) > 0:
			o, ok = x.Last(traffic.WireBedrock, origin.Payload, origin.String(b.Signature), before)
		}
		if ok {
			return &o
		}
	}
	return echoedByText(x, m, before)
}

// echoedByText finds the latest response message with a text block equal to
// one of m's: the origin of a reply echoed without tool calls or signatures.
func echoedByText(x *origin.Index, m *traffic.Message, before int) *origin.Origin {
	texts := map[string]bool{}
	for _, b := range m.Blocks {
		if b.Type == traffic.BlockText && b.Text != "" {
			texts[b.Text] = true
		}
	}
	if len(texts) == 0 {
		return nil
	}
	for i := before - 1; i >= 0; i-- {
		ex := x.Exchange(origin.Origin{Exchange: i})
		if ex.Wire != traffic.WireBedrock || ex.Response == nil {
			continue
		}
		for k, out := range ex.Response.Output {
			for _, b := range out.Blocks {
				if b.Type == traffic.BlockText && texts[b.Text] {
					return &origin.Origin{Exchange: i, Wire: ex.Wire, Output: k, Block: -1}
				}
			}
		}
	}
	return nil
}

// sameBytes reports whether two base64 tokens stand for the same bytes,
// whatever alphabet and padding spell them.
func sameBytes(a, b json.RawMessage) bool {
	v := origin.Value(a)
	return strings.HasPrefix(v, "b") && v == origin.Value(b)
}

// unseenToken reports whether b carries a token no response before
// before produced (as far as the index sees).
func unseenToken(x *origin.Index, b *traffic.Block, before int) bool {
	for _, tok := range [][]byte{b.Signature, b.Data} {
		if len(tok) == 0 {
			continue
		}
		if _, ok := x.Last(traffic.WireBedrock, origin.Payload, origin.String(tok), before); ok {
			return false
		}
		return true
	}
	return false
}

// originOf finds the response block an echoed reasoning block came from:
// the block carrying its signature or data, the block with its text, or
// the nth reasoning block of the response message the echo comes from.
func originOf(x *origin.Index, b *traffic.Block, echoOf *origin.Origin, nth, before int) (*traffic.Block, int) {
	for _, tok := range [][]byte{b.Signature, b.Data} {
		if len(tok) == 0 {
			continue
		}
		if o, ok := x.Last(traffic.WireBedrock, origin.Payload, origin.String(tok), before); ok {
			return x.Block(o), o.Exchange
		}
	}
	if b.Text != "" {
		if o, ok := x.Last(traffic.WireBedrock, origin.Thinking, b.Text, before); ok {
			return x.Block(o), o.Exchange
		}
	}
	if echoOf == nil {
		return nil, 0
	}
	msg := x.Message(*echoOf)
	seen := 0
	for p := range msg.Blocks {
		if reasoning(&msg.Blocks[p]) {
			if seen == nth {
				return &msg.Blocks[p], echoOf.Exchange
			}
			seen++
		}
	}
	return nil, 0
}

func judgeClaudeReasoningSigned(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		if !claude(req.Model) {
			return
		}
		for _, m := range req.Messages {
			if m.Role != traffic.RoleAssistant {
				continue
			}
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockThinking && len(b.Signature) == 0 {
					r.Add(i, "request."+b.Path, "reasoningText sent to %s without its signature", req.Model)
				}
			}
		}
	})
}

func judgeReasoningOnlyFromAssistant(tr *check.Traffic, r *check.Reporter) {
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		for _, m := range req.Messages {
			if m.Role == traffic.RoleAssistant {
				continue
			}
			for _, b := range m.Blocks {
				if reasoning(&b) {
					r.Add(i, "request."+b.Path, "reasoningContent in a %s message", orNone(m.Role))
				}
			}
		}
	})
}

// judgeToolLoopKeepsReasoning: in a request that carries tool results, the assistant
// message before them keeps the reasoning its response opened with.
func judgeToolLoopKeepsReasoning(tr *check.Traffic, r *check.Reporter) {
	x := origin.Of(tr)
	requests(tr, func(i int, _ *traffic.Exchange, req *traffic.Request) {
		if !claude(req.Model) || req.Thinking == nil || req.Thinking.Type == "disabled" {
			return
		}
		msgs := req.Messages
		n := len(msgs)
		if n < 2 || msgs[n-1].Role != traffic.RoleUser || len(resultIDs(&msgs[n-1])) == 0 || msgs[n-2].Role != traffic.RoleAssistant {
			return
		}
		echo := &msgs[n-2]
		o := echoedResponse(x, echo, i)
		if o == nil {
			return
		}
		want := 0
		for _, b := range x.Message(*o).Blocks {
			if reasoning(&b) {
				want++
			}
		}
		got := 0
		for _, b := range echo.Blocks {
			if reasoning(&b) {
				got++
			}
		}
		switch {
		case want == 0:
		case len(echo.Blocks) == 0 || !reasoning(&echo.Blocks[0]):
			r.Add(i, "request."+echo.Path, "the assistant message of the tool loop does not start with the reasoning interaction %d produced (%d reasoning blocks, %d echoed)", o.Exchange, want, got)
		case got < want:
			r.Add(i, "request."+echo.Path, "the assistant message of the tool loop keeps %d of the %d reasoning blocks interaction %d produced", got, want, o.Exchange)
		}
	})
}
