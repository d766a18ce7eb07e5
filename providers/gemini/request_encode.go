package gemini

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// EncodeRequest encodes the model as a generateContent body, with HTML
// escaping off. Raw values kept in Extra by DecodeRequest supply spelling,
// order and fields the model does not name; the model's own fields win
// wherever they say something else.
func (Codec) EncodeRequest(req *traffic.Request) ([]byte, error) {
	if req == nil {
		return nil, fmt.Errorf("nil request")
	}
	var o rawjson.Object
	if kept := req.Extra[nModel.camel]; kept != nil {
		o.Raw(nModel.camel, modelValue(req.Model, kept))
	}
	if req.Messages == nil {
		o.Raw(nContents.camel, req.Extra[nContents.camel]) // "contents": null
	} else {
		items := make([]json.RawMessage, 0, len(req.Messages))
		for i, m := range req.Messages {
			c, err := encodeContent(m)
			if err != nil {
				return nil, fmt.Errorf("contents[%d]: %w", i, err)
			}
			items = append(items, c)
		}
		if len(items) == 1 && req.Messages[0].Path == nContents.camel {
			o.Raw(nContents.camel, items[0]) // one content, as it was written
		} else {
			o.Raw(nContents.camel, rawjson.ArrayOf(items))
		}
	}
	key, kept := keptField(req.Extra, nSystem)
	sys, err := systemValue(req, kept, isSnake(key))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	o.Raw(key, sys)
	o.Raw(nTools.camel, toolsValue(req))
	key, kept = keptField(req.Extra, nToolConfig)
	if req.ToolChoice != nil {
		kept = req.ToolChoice
	}
	o.Raw(key, kept)
	key, kept = keptField(req.Extra, nGenConfig)
	o.Raw(key, genConfigValue(req, kept, isSnake(key)))
	writeExtra(&o, req.Extra, topNames)
	return o.Bytes(), nil
}

// keptField finds the raw value Extra keeps for a surfaced field, and the
// key to write it under (camelCase when Extra has none).
func keptField(extra map[string]json.RawMessage, n name) (string, json.RawMessage) {
	for _, k := range []string{n.camel, n.snake} {
		if v, ok := extra[k]; ok {
			return k, v
		}
	}
	return n.camel, nil
}

func modelValue(model string, kept json.RawMessage) json.RawMessage {
	s, ok := rawjson.String(kept)
	if !ok && model == "" || ok && strings.TrimPrefix(s, "models/") == model {
		return kept
	}
	if model == "" {
		return nil
	}
	if strings.HasPrefix(s, "models/") {
		model = "models/" + model
	}
	return rawjson.Quote(model)
}

func encodeContent(m traffic.Message) (json.RawMessage, error) {
	var o rawjson.Object
	if kept := m.Extra[nRole.camel]; kept != nil && roleFromWire(kept) == m.Role {
		o.Raw(nRole.camel, kept)
	} else {
		o.Raw(nRole.camel, optString(wireRole(m.Role)))
	}
	switch {
	case m.ContentNull:
		o.Raw(nParts.camel, json.RawMessage("null"))
	case m.Blocks != nil:
		parts, err := encodeParts(m.Blocks)
		if err != nil {
			return nil, err
		}
		o.Raw(nParts.camel, parts)
	}
	writeExtra(&o, m.Extra, []name{nRole, nParts})
	return o.Bytes(), nil
}

// systemValue builds systemInstruction from System, inside the raw value
// kept from the wire when there is one.
func systemValue(req *traffic.Request, kept json.RawMessage, snake bool) (json.RawMessage, error) {
	if req.SystemString {
		var text strings.Builder
		for _, b := range req.System {
			text.WriteString(b.Text)
		}
		if s, ok := rawjson.String(kept); ok && s == text.String() {
			return kept, nil
		}
		return rawjson.Quote(text.String()), nil
	}
	if req.System == nil {
		if kept == nil {
			return nil, nil
		}
		if sys, _, err := decodeSystem(kept, ""); err == nil && sys == nil {
			return kept, nil // null, or a systemInstruction without parts, as it was
		}
		return nil, nil
	}
	if rawjson.Kind(kept) != "object" {
		kept = nil
	}
	parts, err := encodeParts(req.System)
	if err != nil {
		return nil, err
	}
	return patch(kept, snake, set{name: nParts, value: parts, same: func(raw json.RawMessage) bool {
		return rawjson.Equal(raw, parts)
	}}), nil
}

// toolsValue writes the kept tools array when the model's tools are still
// what it says, and builds the array from the model otherwise.
func toolsValue(req *traffic.Request) json.RawMessage {
	if kept := req.Extra[nTools.camel]; kept != nil {
		if view, err := decodeTools(kept); err == nil && reflect.DeepEqual(view, req.Tools) {
			return kept
		}
	}
	if req.Tools == nil {
		return nil
	}
	return buildTools(req.Tools)
}

// buildTools groups consecutive function declarations into one tool object.
func buildTools(tools []traffic.Tool) json.RawMessage {
	items := []json.RawMessage{}
	var group []json.RawMessage
	flush := func() {
		if group != nil {
			var o rawjson.Object
			o.Raw(nDeclarations.camel, rawjson.ArrayOf(group))
			items = append(items, o.Bytes())
			group = nil
		}
	}
	for _, t := range tools {
		if !isDeclaration(t) {
			flush()
			items = append(items, t.Raw)
			continue
		}
		group = append(group, declarationValue(t))
	}
	flush()
	return rawjson.ArrayOf(items)
}

// isDeclaration tells a function declaration from another tool kind, which
// has only Raw, an object without a name.
func isDeclaration(t traffic.Tool) bool {
	if t.Name != "" || len(t.Raw) == 0 {
		return true
	}
	obj, err := parseObject(t.Raw, "")
	return err != nil || obj.value(nName) != nil
}

func declarationValue(t traffic.Tool) json.RawMessage {
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var o rawjson.Object
	o.String(nName.camel, t.Name)
	o.StringNonEmpty(nDescription.camel, t.Description)
	o.Raw("parameters", t.Schema)
	return o.Bytes()
}

// genConfigValue writes Thinking and MaxTokens into the kept
// generationConfig.
func genConfigValue(req *traffic.Request, kept json.RawMessage, snake bool) json.RawMessage {
	if kept != nil && rawjson.Kind(kept) != "object" {
		return kept
	}
	if kept == nil && req.Thinking == nil && req.MaxTokens == 0 {
		return nil
	}
	var max json.RawMessage
	if req.MaxTokens != 0 {
		max = json.RawMessage(fmt.Sprint(req.MaxTokens))
	}
	return patch(kept, snake,
		set{name: nMaxTokens, value: max, same: func(raw json.RawMessage) bool {
			n, _ := intValue(raw)
			return n == req.MaxTokens
		}},
		set{name: nThinkingConfig, value: thinkingValue(req.Thinking), same: func(raw json.RawMessage) bool {
			return reflect.DeepEqual(decodeThinking(raw), req.Thinking)
		}},
	)
}

// thinkingValue is Thinking.Raw, or a thinkingConfig built for a Thinking
// made in code.
func thinkingValue(t *traffic.Thinking) json.RawMessage {
	if t == nil {
		return nil
	}
	if len(t.Raw) > 0 {
		return t.Raw
	}
	var o rawjson.Object
	switch t.Type {
	case "disabled":
		o.Int(nBudget.camel, 0)
	case "":
	default:
		o.Bool(nIncludeThought.camel, true)
		if t.BudgetTokens != 0 {
			o.Int(nBudget.camel, t.BudgetTokens)
		}
	}
	return o.Bytes()
}
