package gemini

import (
	"encoding/json"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// A Gemini Part holds one kind of data (text, functionCall, functionResponse,
// inlineData, fileData, executableCode…) and optional siblings: thought,
// thoughtSignature, videoMetadata…
//
// Decoding keeps the part losslessly:
//   - text → BlockText, or BlockThinking with Thought when thought is true;
//   - functionCall → BlockToolCall, functionResponse → BlockToolResult,
//     inlineData → BlockImage or BlockDocument by mimeType;
//   - thoughtSignature on any part → Signature, the raw string token;
//   - a part holding only a signature is a text block with empty Text and
//     WireType set to the signature's key, so it stays its own block;
//   - any other data kind, a part with two data kinds or a repeated key →
//     BlockOther with Raw = the whole part;
//   - other sibling fields, and a thought value other than true → Extra.
//
// WireType is the data key as spelled on the wire ("functionCall" or
// "function_call"), so encoding writes the same spelling back. When the
// object under functionCall or functionResponse holds something the model
// does not name (a thoughtSignature nested inside functionCall, which the
// API rejects — GEM-SIG-001 —, willContinue, a non-string name…), or the
// signature key is spelled thought_signature, the raw value is also kept in
// Extra under its wire key. The encoder then writes the model's values
// into that raw object and never emits the Extra copy by itself.

// partNames are the part fields the codec interprets.
var partNames = []name{nText, nThought, nSignature, nCall, nResponse, nInline}

// dataNames are the part fields that hold the part's data.
var dataNames = []name{nText, nCall, nResponse, nInline}

// decodeParts decodes a parts array, or one part, found at path.
func decodeParts(raw json.RawMessage, path string) ([]traffic.Block, error) {
	return decodePartList(raw, path, false)
}

// decodePartList decodes parts; inner parts are those of a functionResponse,
// which the API allows to hold media only (FunctionResponsePart): a
// functionCall or functionResponse there stays BlockOther, which also keeps
// decoding from recursing without bound.
func decodePartList(raw json.RawMessage, path string, inner bool) ([]traffic.Block, error) {
	items, single, err := listOf(raw)
	if err != nil {
		return nil, rawjson.Mismatch(path, "an array of parts (or one part)", raw)
	}
	blocks := make([]traffic.Block, 0, len(items))
	for i, it := range items {
		b, err := decodePart(it, itemPath(path, i, single), inner)
		if err != nil {
			return nil, err
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// decodePart decodes one part found at path.
func decodePart(raw json.RawMessage, path string, inner bool) (traffic.Block, error) {
	obj, err := parseObject(raw, path)
	if err != nil {
		return traffic.Block{}, err
	}
	b := traffic.Block{Path: path}
	other := func(wireType string) traffic.Block {
		b := traffic.Block{Type: traffic.BlockOther, WireType: wireType, Path: path, Raw: raw}
		if sig := obj.value(nSignature); rawjson.Kind(sig) == "string" {
			b.Signature = sig
		}
		b.Thought = isTrue(obj.value(nThought))
		return b
	}
	if obj.duplicate(partNames...) != "" {
		return other(""), nil
	}

	var data *rawjson.Field
	var unknown []rawjson.Field
	for i, f := range obj.fields {
		switch {
		case isOne(f.Key, dataNames):
			if data != nil {
				return other(""), nil // two kinds of data in one part
			}
			data = &obj.fields[i]
		case nThought.is(f.Key):
			if isTrue(f.Value) {
				b.Thought = true
			} else {
				setExtra(&b, f.Key, f.Value)
			}
		case nSignature.is(f.Key):
			if rawjson.Kind(f.Value) != "string" {
				setExtra(&b, f.Key, f.Value)
				continue
			}
			b.Signature = f.Value
			if f.Key != nSignature.camel {
				setExtra(&b, f.Key, f.Value) // remembers the spelling
			}
		default:
			unknown = append(unknown, f)
		}
	}

	if data == nil {
		if len(unknown) > 0 || b.Signature == nil {
			wt := ""
			if len(unknown) > 0 {
				wt = unknown[0].Key
			}
			return other(wt), nil
		}
		// A signature-only part: its own block, in place (GEM-SIG-004).
		sigKey, _, _ := obj.get(nSignature)
		b.Type, b.WireType = traffic.BlockText, sigKey
		if b.Thought {
			b.Type = traffic.BlockThinking
		}
		delete(b.Extra, sigKey) // WireType already remembers the spelling
		if len(b.Extra) == 0 {
			b.Extra = nil
		}
		return b, nil
	}

	for _, f := range unknown {
		setExtra(&b, f.Key, f.Value)
	}
	b.WireType = data.Key
	ok := false
	switch {
	case inner && (nCall.is(data.Key) || nResponse.is(data.Key)):
	case nText.is(data.Key):
		ok = decodeText(&b, data.Value)
	case nCall.is(data.Key):
		ok = decodeCall(&b, data.Key, data.Value)
	case nResponse.is(data.Key):
		ok = decodeResult(&b, data.Key, data.Value)
	case nInline.is(data.Key):
		ok = decodeInline(&b, data.Value)
	}
	if !ok {
		return other(data.Key), nil
	}
	return b, nil
}

func isOne(key string, names []name) bool {
	for _, n := range names {
		if n.is(key) {
			return true
		}
	}
	return false
}

func decodeText(b *traffic.Block, raw json.RawMessage) bool {
	s, ok := rawjson.String(raw)
	if !ok {
		return false
	}
	b.Type, b.Text = traffic.BlockText, s
	if b.Thought {
		b.Type = traffic.BlockThinking
	}
	return true
}

func decodeCall(b *traffic.Block, key string, raw json.RawMessage) bool {
	obj, err := parseObject(raw, "")
	if err != nil {
		return false
	}
	b.Type = traffic.BlockToolCall
	b.ID, b.Name, b.Input = obj.str(nID), obj.str(nName), obj.value(nArgs)
	keepUnlessRebuilt(b, key, raw, callValue(*b, nil, isSnake(key)))
	return true
}

func decodeResult(b *traffic.Block, key string, raw json.RawMessage) bool {
	obj, err := parseObject(raw, "")
	if err != nil {
		return false
	}
	b.Type = traffic.BlockToolResult
	b.ToolCallID, b.Name, b.ResultRaw = obj.str(nID), obj.str(nName), obj.value(nResult)
	if parts := obj.value(nParts); parts != nil {
		// Parts that do not decode leave the whole part to BlockOther.
		if b.Content, err = decodePartList(parts, b.Path+"."+key+".parts", true); err != nil {
			return false
		}
	}
	rebuilt, err := resultValue(*b, nil, isSnake(key))
	if err != nil {
		return false
	}
	keepUnlessRebuilt(b, key, raw, rebuilt)
	return true
}

func decodeInline(b *traffic.Block, raw json.RawMessage) bool {
	obj, err := parseObject(raw, "")
	if err != nil {
		return false
	}
	b.Type, b.Source, b.MediaType = traffic.BlockDocument, raw, obj.str(nMimeType)
	if strings.HasPrefix(b.MediaType, "image/") {
		b.Type = traffic.BlockImage
	}
	return true
}

// keepUnlessRebuilt keeps raw in Extra under key when building the value
// from the model would not give the same JSON value back.
func keepUnlessRebuilt(b *traffic.Block, key string, raw, rebuilt json.RawMessage) {
	if !rawjson.Equal(rebuilt, raw) {
		setExtra(b, key, raw)
	}
}

func setExtra(b *traffic.Block, key string, v json.RawMessage) {
	if b.Extra == nil {
		b.Extra = make(map[string]json.RawMessage)
	}
	b.Extra[key] = v
}
