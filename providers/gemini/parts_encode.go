package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// encodeParts encodes blocks as a parts array, or as the one part they
// were read from when the wire wrote it without an array.
func encodeParts(blocks []traffic.Block) (json.RawMessage, error) {
	items := make([]json.RawMessage, 0, len(blocks))
	for i, b := range blocks {
		it, err := encodePart(b)
		if err != nil {
			where := b.Path
			if where == "" {
				where = fmt.Sprintf("parts[%d]", i)
			}
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		items = append(items, it)
	}
	if singlePart(blocks) {
		return items[0], nil
	}
	return rawjson.ArrayOf(items), nil
}

// encodePart encodes one block as a part; see parts.go for the mapping.
func encodePart(b traffic.Block) (json.RawMessage, error) {
	if b.Type == traffic.BlockOther {
		if len(b.Raw) == 0 {
			return nil, fmt.Errorf("block of type other has no raw part")
		}
		return patch(b.Raw, false, signatureSet(b), thoughtSet(b)), nil
	}
	var o rawjson.Object
	snake := isSnake(b.WireType)
	switch b.Type {
	case traffic.BlockText, traffic.BlockThinking:
		if !(nSignature.is(b.WireType) && b.Text == "") {
			o.String("text", b.Text)
		}
	case traffic.BlockToolCall:
		key := dataKey(b, nCall)
		o.Raw(key, callValue(b, b.Extra[key], snake))
	case traffic.BlockToolResult:
		key := dataKey(b, nResponse)
		v, err := resultValue(b, b.Extra[key], snake)
		if err != nil {
			return nil, err
		}
		o.Raw(key, v)
	case traffic.BlockImage, traffic.BlockDocument:
		v := b.Source
		if mt, data, ok := media.Neutral(v); ok {
			var src rawjson.Object
			src.String(pick(snake, nMimeType), mt)
			src.String("data", data)
			v = src.Bytes()
		} else if len(v) == 0 {
			var src rawjson.Object
			src.StringNonEmpty(pick(snake, nMimeType), b.MediaType)
			v = src.Bytes()
		}
		o.Raw(dataKey(b, nInline), v)
	default:
		return nil, fmt.Errorf("a %s block has no Gemini part", b.Type)
	}
	if b.Thought || b.Type == traffic.BlockThinking {
		o.Bool("thought", true)
	} else {
		o.Raw("thought", b.Extra["thought"])
	}
	if b.Signature != nil {
		o.Raw(signatureKey(b), b.Signature)
	} else {
		o.Raw(keptField(b.Extra, nSignature)) // a value that is not a signature token
	}
	writeExtra(&o, b.Extra, partNames)
	return o.Bytes(), nil
}

// dataKey is the key a block's data is written under: the wire's own
// spelling when the block was decoded, camelCase otherwise.
func dataKey(b traffic.Block, n name) string {
	if n.is(b.WireType) {
		return b.WireType
	}
	return n.camel
}

// signatureKey keeps the spelling the signature was read with.
func signatureKey(b traffic.Block) string {
	if _, ok := b.Extra[nSignature.snake]; ok || b.WireType == nSignature.snake {
		return nSignature.snake
	}
	return nSignature.camel
}

func pick(snake bool, n name) string {
	if snake {
		return n.snake
	}
	return n.camel
}

func signatureSet(b traffic.Block) set {
	return set{name: nSignature, value: b.Signature, same: func(raw json.RawMessage) bool {
		if rawjson.Kind(raw) != "string" {
			return b.Signature == nil
		}
		return bytes.Equal(raw, b.Signature)
	}}
}

func thoughtSet(b traffic.Block) set {
	var v json.RawMessage
	if b.Thought {
		v = json.RawMessage("true")
	}
	return set{name: nThought, value: v, same: func(raw json.RawMessage) bool { return isTrue(raw) == b.Thought }}
}

// callValue builds a functionCall object from the model, inside the raw
// object kept from the wire when there is one.
func callValue(b traffic.Block, kept json.RawMessage, snake bool) json.RawMessage {
	return patch(kept, snake,
		set{name: nID, value: optString(b.ID), same: sameString(b.ID)},
		set{name: nName, value: optString(b.Name), same: sameString(b.Name)},
		set{name: nArgs, value: b.Input, same: sameBytes(b.Input)},
	)
}

// resultValue builds a functionResponse object the same way.
func resultValue(b traffic.Block, kept json.RawMessage, snake bool) (json.RawMessage, error) {
	var parts json.RawMessage
	if b.Content != nil {
		var err error
		if parts, err = encodeParts(b.Content); err != nil {
			return nil, err
		}
	}
	return patch(kept, snake,
		set{name: nID, value: optString(b.ToolCallID), same: sameString(b.ToolCallID)},
		set{name: nName, value: optString(b.Name), same: sameString(b.Name)},
		set{name: nResult, value: b.ResultRaw, same: sameBytes(b.ResultRaw)},
		set{name: nParts, value: parts, same: func(raw json.RawMessage) bool { return rawjson.Equal(raw, parts) }},
	), nil
}

// writeExtra adds the fields of extra in key order, leaving out those the
// codec interprets: their values there only remember a wire spelling or a
// value the model cannot hold, and were used already.
func writeExtra(o *rawjson.Object, extra map[string]json.RawMessage, interpreted []name) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !isOne(k, interpreted) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.Raw(k, extra[k])
	}
}
