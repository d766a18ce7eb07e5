// Package origin is the one origin index every check family uses: where
// each opaque payload, tool call, output item and thinking text of a
// traffic was produced, so a check ties what a request echoes to the
// response it came from with one map access.
package origin

import (
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Kind says what a key identifies.
type Kind uint8

const (
	// Payload is an opaque token (signature, redacted data,
	// encrypted_content, thoughtSignature) by its decoded JSON string.
	Payload Kind = iota + 1
	// PayloadValue is an opaque token by Value: what its base64 decodes to
	// in either alphabet, so a re-encoded echo finds its origin.
	PayloadValue
	// Call is a tool call by its id (tool_use id, tool_calls[].id,
	// function_call call_id, functionCall id).
	Call
	// Item is a Responses output item by its own id (rs_…, fc_…, msg_…).
	Item
	// Thinking is a thinking block, or a reasoning item, by its non-empty
	// text (a reasoning item's text is its summary).
	Thinking
	// Response is a whole response by its id (msg_…, resp_…); its Output
	// and Block are -1.
	Response
)

// Origin is one thing a response produced: block Block of output message
// Output of exchange Exchange. For an Item, Block is -1; for a payload,
// Field names the block's field that carried it.
type Origin struct {
	Exchange int
	Wire     traffic.Wire
	Output   int
	Block    int
	Field    string
}

type key struct {
	kind Kind
	s    string
}

// Index holds the origins of one traffic, each key's in exchange order.
type Index struct {
	tr   *check.Traffic
	keys map[key][]Origin
}

// Of returns the index of tr, built on first use and shared by every check
// judging tr.
func Of(tr *check.Traffic) *Index { return check.Analysis(tr, "origin", build) }

func build(tr *check.Traffic) *Index {
	x := &Index{tr: tr} // keys is made by the first origin: a request judged alone has none
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Response == nil {
			continue
		}
		if id := ex.Response.ID; id != "" {
			x.add(Response, id, Origin{Exchange: i, Wire: ex.Wire, Output: -1, Block: -1})
		}
		for k := range ex.Response.Output {
			m := &ex.Response.Output[k]
			at := Origin{Exchange: i, Wire: ex.Wire, Output: k, Block: -1}
			if id := ItemID(m); id != "" && ex.Wire == traffic.WireResponses {
				x.add(Item, id, at)
			}
			for j := range m.Blocks {
				b := &m.Blocks[j]
				at.Block = j
				for _, p := range payloads(ex.Wire, b) {
					if len(p.raw) > 0 {
						at.Field = p.field
						x.add(Payload, String(p.raw), at)
						x.add(PayloadValue, Value(p.raw), at)
					}
				}
				at.Field = ""
				if b.Type == traffic.BlockToolCall && b.ID != "" {
					x.add(Call, b.ID, at)
				}
				if (b.Type == traffic.BlockThinking || b.Type == traffic.BlockReasoning) && b.Text != "" {
					x.add(Thinking, b.Text, at)
				}
			}
		}
	}
	return x
}

type payload struct {
	field string
	raw   json.RawMessage
}

// payloads are a block's opaque tokens with the names their wire gives
// their fields.
func payloads(w traffic.Wire, b *traffic.Block) [3]payload {
	sig := "signature"
	if w == traffic.WireGemini {
		sig = "thoughtSignature"
	}
	return [3]payload{{sig, b.Signature}, {"data", b.Data}, {"encrypted_content", b.EncryptedContent}}
}

// Payload is the raw token o names, as the response carried it.
func (x *Index) Payload(o Origin) json.RawMessage {
	b := x.Block(o)
	if b == nil {
		return nil
	}
	for _, p := range payloads(o.Wire, b) {
		if p.field == o.Field {
			return p.raw
		}
	}
	return nil
}

// All is every origin of the key in exchanges before before, in exchange
// order.
func (x *Index) All(kind Kind, s string, before int) []Origin { return x.origins(kind, s, before) }

// add records o under a key.
func (x *Index) add(kind Kind, s string, o Origin) {
	k := key{kind, s}
	if x.keys == nil {
		x.keys = map[key][]Origin{}
	}
	x.keys[k] = append(x.keys[k], o)
}

// origins are the origins of a key in exchanges before before, of wire w
// ("" for any), in exchange order.
func (x *Index) origins(kind Kind, s string, before int) []Origin {
	os := x.keys[key{kind, s}]
	n := sort.Search(len(os), func(i int) bool { return os[i].Exchange >= before })
	return os[:n]
}

// First is the earliest origin of the key on wire w ("" for any) in an
// exchange before before.
func (x *Index) First(w traffic.Wire, kind Kind, s string, before int) (Origin, bool) {
	for _, o := range x.origins(kind, s, before) {
		if w == "" || o.Wire == w {
			return o, true
		}
	}
	return Origin{}, false
}

// Last is the latest origin of the key on wire w ("" for any) in an
// exchange before before.
func (x *Index) Last(w traffic.Wire, kind Kind, s string, before int) (Origin, bool) {
	os := x.origins(kind, s, before)
	for i := len(os) - 1; i >= 0; i-- {
		if w == "" || os[i].Wire == w {
			return os[i], true
		}
	}
	return Origin{}, false
}

// FirstElsewhere is the earliest origin of the key on a wire other than w,
// in an exchange before before: another provider's token.
func (x *Index) FirstElsewhere(w traffic.Wire, kind Kind, s string, before int) (Origin, bool) {
	for _, o := range x.origins(kind, s, before) {
		if o.Wire != w {
			return o, true
		}
	}
	return Origin{}, false
}

// Exchange is the exchange o was produced by.
func (x *Index) Exchange(o Origin) *traffic.Exchange { return &x.tr.Exchanges[o.Exchange] }

// Message is the output message (or item) o is part of; nil for a
// Response.
func (x *Index) Message(o Origin) *traffic.Message {
	if o.Output < 0 {
		return nil
	}
	return &x.tr.Exchanges[o.Exchange].Response.Output[o.Output]
}

// Block is the block o names; nil for an item as a whole.
func (x *Index) Block(o Origin) *traffic.Block {
	if o.Block < 0 {
		return nil
	}
	return &x.Message(o).Blocks[o.Block]
}

// String is an opaque token's decoded JSON string; a token that is not a
// string is kept as its bytes, so it compares unequal to every string.
func String(raw json.RawMessage) string {
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	return string(raw)
}

// Value identifies an opaque token by what it decodes to: the bytes of its
// base64 in either alphabet, padded or not ("b" + bytes); a string that is
// not base64 ("s" + string); a token that is not a string ("\x00" + raw).
func Value(raw json.RawMessage) string {
	s, ok := rawjson.String(raw)
	if !ok {
		return "\x00" + string(raw)
	}
	t := oneAlphabet.Replace(strings.TrimRight(s, "="))
	if b, err := base64.RawStdEncoding.DecodeString(t); err == nil {
		return "b" + string(b)
	}
	return "s" + s
}

var oneAlphabet = strings.NewReplacer("-", "+", "_", "/")

// ItemID is a Responses output item's own id (msg_…, rs_…, fc_…): its id
// field, else the item id its blocks carry.
func ItemID(m *traffic.Message) string {
	if raw, ok := m.Extra["id"]; ok {
		s, _ := rawjson.String(raw)
		return s
	}
	for i := range m.Blocks { // by index: a Block is large to copy, and this runs on every message of a history
		if id := m.Blocks[i].ItemID; id != "" {
			return id
		}
	}
	return ""
}
