package gemini

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// DecodeRequest decodes a generateContent or streamGenerateContent body.
//
// The model and the streaming mode are in the URL, so Model is set only when
// the body carries one (older gapic clients send "model":"models/…"; Model
// then holds it without the "models/" prefix) and Stream stays false: the
// caller fills both from the URL.
//
// contents → Messages ("user" → RoleUser, "model" → RoleAssistant, any
// other role as is, an unset role as Role ""), systemInstruction → System,
// functionDeclarations → one Tool each (other tool kinds → a Tool with only
// Raw), toolConfig → ToolChoice, generationConfig → Extra with its
// thinkingConfig surfaced as Thinking and maxOutputTokens as MaxTokens; every
// other field → Extra. A top-level field the model surfaces is also kept raw
// in Extra when the model alone would not rebuild it — snake_case spelling,
// a role on systemInstruction, tools split over several objects — and the
// encoder then writes the model's values into that raw value.
func (Codec) DecodeRequest(b []byte) (*traffic.Request, error) {
	if err := body.Object(b); err != nil {
		return nil, err
	}
	if err := body.UTF8(b); err != nil {
		return nil, err
	}
	obj, err := parseObject(b, "request body")
	if err != nil {
		return nil, err
	}
	return requestOf(obj, decodeContents)
}

// DecodeRequestMemo is DecodeRequest with the contents decoded through
// memo, which validates only the contents it has not seen: a content
// already decoded at the same position is shared, not decoded again. A
// body with a fault of any kind is decoded again alone, which names the
// fault.
func (c Codec) DecodeRequestMemo(b []byte, memo *traffic.Memo) (*traffic.Request, error) {
	fields, ok := rawjson.ValidatedExcept(b, memo.LastArray(), nContents.camel)
	if ok && utf8.Valid(b) { // a pass much faster than the JSON's
		req, err := requestOf(object{fields: fields}, func(raw json.RawMessage) ([]traffic.Message, error) {
			return memo.DecodeMessages(raw, func(i int, item json.RawMessage) (traffic.Message, error) {
				return decodeContent(item, rawjson.Index("contents", i))
			})
		})
		if err == nil {
			return req, nil
		}
	}
	return c.DecodeRequest(b)
}

// requestOf reads a request from its top-level object, the contents with
// decode.
func requestOf(obj object, decode func(json.RawMessage) ([]traffic.Message, error)) (*traffic.Request, error) {
	if k := obj.duplicate(topNames...); k != "" {
		return nil, fmt.Errorf("duplicate key %q", k)
	}
	var err error
	req := &traffic.Request{Wire: traffic.WireGemini}
	keep := func(key string, v json.RawMessage) {
		if req.Extra == nil {
			req.Extra = make(map[string]json.RawMessage)
		}
		req.Extra[key] = v
	}
	for _, f := range obj.fields {
		switch {
		case rawjson.Kind(f.Value) == "null":
			keep(f.Key, f.Value) // proto JSON reads null as absent; kept to write it back
		case nContents.is(f.Key):
			if req.Messages, err = decode(f.Value); err != nil {
				return nil, err
			}
		case nSystem.is(f.Key):
			if req.System, req.SystemString, err = decodeSystem(f.Value, f.Key); err != nil {
				return nil, err
			}
			rebuilt, err := systemValue(req, nil, false)
			if err != nil {
				return nil, err
			}
			if f.Key != nSystem.camel || !rawjson.Equal(rebuilt, f.Value) {
				keep(f.Key, f.Value)
			}
		case nTools.is(f.Key):
			if req.Tools, err = decodeTools(f.Value); err != nil {
				return nil, err
			}
			if !rawjson.Equal(buildTools(req.Tools), f.Value) {
				keep(f.Key, f.Value)
			}
		case nToolConfig.is(f.Key):
			req.ToolChoice = f.Value
			if f.Key != nToolConfig.camel {
				keep(f.Key, f.Value) // remembers the spelling
			}
		case nGenConfig.is(f.Key):
			keep(f.Key, f.Value)
			req.Thinking, req.MaxTokens = decodeGenConfig(f.Value)
		case nModel.is(f.Key):
			keep(f.Key, f.Value) // the URL names the model; written back only if it was here
			s, _ := rawjson.String(f.Value)
			req.Model = strings.TrimPrefix(s, "models/")
		default:
			keep(f.Key, f.Value)
		}
	}
	req.Notes = lenientNotes(req, obj)
	return req, nil
}

// topNames are the top-level fields the codec interprets.
var topNames = []name{nModel, nContents, nSystem, nTools, nToolConfig, nGenConfig}

func decodeContents(raw json.RawMessage) ([]traffic.Message, error) {
	items, single, err := listOf(raw)
	if err != nil {
		return nil, rawjson.Mismatch("contents", "an array (or one content)", raw)
	}
	msgs := make([]traffic.Message, 0, len(items))
	for i, it := range items {
		m, err := decodeContent(it, itemPath("contents", i, single))
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// decodeContent decodes one Content {role, parts} found at path.
func decodeContent(raw json.RawMessage, path string) (traffic.Message, error) {
	obj, err := parseObject(raw, path)
	if err != nil {
		return traffic.Message{}, err
	}
	if k := obj.duplicate(nRole, nParts); k != "" {
		return traffic.Message{}, fmt.Errorf("%s: duplicate key %q", path, k)
	}
	m := traffic.Message{Path: path}
	keep := func(key string, v json.RawMessage) {
		if m.Extra == nil {
			m.Extra = make(map[string]json.RawMessage)
		}
		m.Extra[key] = v
	}
	for _, f := range obj.fields {
		switch {
		case nRole.is(f.Key):
			m.Role = roleFromWire(f.Value)
			if s, ok := rawjson.String(f.Value); !ok || s == "" || s != wireRole(m.Role) {
				keep(f.Key, f.Value) // a role the model would write differently
			}
		case nParts.is(f.Key):
			if rawjson.Kind(f.Value) == "null" {
				m.ContentNull = true
				continue
			}
			if m.Blocks, err = decodeParts(f.Value, path+"."+f.Key); err != nil {
				return traffic.Message{}, err
			}
		default:
			keep(f.Key, f.Value)
		}
	}
	return m, nil
}

// roleFromWire maps a wire role to the model: user and model are named,
// any other string is kept as is, anything else is Role "".
func roleFromWire(raw json.RawMessage) traffic.Role {
	s, _ := rawjson.String(raw)
	switch s {
	case "user":
		return traffic.RoleUser
	case "model":
		return traffic.RoleAssistant
	}
	return traffic.Role(s)
}

// wireRole is the role name written for a model role.
func wireRole(r traffic.Role) string {
	switch r {
	case traffic.RoleUser:
		return "user"
	case traffic.RoleAssistant:
		return "model"
	}
	return string(r)
}

// decodeSystem decodes systemInstruction: a Content, or a bare string.
func decodeSystem(raw json.RawMessage, key string) ([]traffic.Block, bool, error) {
	if rawjson.Kind(raw) == "null" {
		return nil, false, nil
	}
	if s, ok := rawjson.String(raw); ok {
		return []traffic.Block{{Type: traffic.BlockText, Text: s, Path: key}}, true, nil
	}
	obj, err := parseObject(raw, key)
	if err != nil {
		return nil, false, err
	}
	if k := obj.duplicate(nRole, nParts); k != "" {
		return nil, false, fmt.Errorf("%s: duplicate key %q", key, k)
	}
	pk, parts, ok := obj.get(nParts)
	if !ok {
		return nil, false, nil
	}
	blocks, err := decodeParts(parts, key+"."+pk)
	return blocks, false, err
}

// decodeTools decodes tools: each function declaration becomes a Tool;
// the rest of a tool object (googleSearch, codeExecution…) becomes a Tool
// with only Raw.
func decodeTools(raw json.RawMessage) ([]traffic.Tool, error) {
	if rawjson.Kind(raw) == "null" {
		return nil, nil
	}
	items, _, err := listOf(raw)
	if err != nil {
		return nil, rawjson.Mismatch("tools", "an array (or one tool)", raw)
	}
	tools := []traffic.Tool{}
	for i, it := range items {
		obj, err := parseObject(it, fmt.Sprintf("tools[%d]", i))
		if err != nil {
			return nil, err
		}
		var rest rawjson.Object
		restFields, decls := 0, 0
		for _, f := range obj.fields {
			list, _, err := listOf(f.Value)
			if !nDeclarations.is(f.Key) || err != nil {
				rest.Raw(f.Key, f.Value)
				restFields++
				continue
			}
			decls++
			for _, d := range list {
				tools = append(tools, decodeDeclaration(d))
			}
		}
		switch {
		case decls == 0:
			tools = append(tools, traffic.Tool{Raw: it})
		case restFields > 0:
			tools = append(tools, traffic.Tool{Raw: rest.Bytes()})
		}
	}
	return tools, nil
}

func decodeDeclaration(raw json.RawMessage) traffic.Tool {
	t := traffic.Tool{Raw: raw}
	obj, err := parseObject(raw, "")
	if err != nil {
		return t
	}
	t.Name, t.Description = obj.str(nName), obj.str(nDescription)
	for _, n := range schemaNames {
		if v := obj.value(n); v != nil {
			t.Schema = v
			break
		}
	}
	return t
}

// decodeGenConfig reads the views the model has of generationConfig.
func decodeGenConfig(raw json.RawMessage) (*traffic.Thinking, int) {
	obj, err := parseObject(raw, "")
	if err != nil {
		return nil, 0
	}
	max, _ := intValue(obj.value(nMaxTokens))
	var thinking *traffic.Thinking
	if tc := obj.value(nThinkingConfig); tc != nil {
		thinking = decodeThinking(tc)
	}
	return thinking, max
}

// decodeThinking normalises thinkingConfig. Type is "enabled" when thoughts
// are included, a level is set or the budget is not 0 (-1 is the dynamic
// budget), "disabled" for a budget of 0 alone, "" otherwise.
func decodeThinking(raw json.RawMessage) *traffic.Thinking {
	t := &traffic.Thinking{Raw: raw}
	obj, err := parseObject(raw, "")
	if err != nil {
		return t
	}
	budget, hasBudget := intValue(obj.value(nBudget))
	level := obj.value(nLevel)
	t.BudgetTokens = budget
	switch {
	case isTrue(obj.value(nIncludeThought)), level != nil && rawjson.Kind(level) != "null", hasBudget && budget != 0:
		t.Type = "enabled"
	case hasBudget:
		t.Type = "disabled"
	}
	return t
}

// lenientNotes names each repeated field the request wrote as one value,
// which the codec read as a list of one, as Google's parser does.
func lenientNotes(req *traffic.Request, obj object) []string {
	var notes []string
	note := func(path string) {
		notes = append(notes, path+" is one value, not an array: read as a list of one, as the API does")
	}
	if len(req.Messages) == 1 && req.Messages[0].Path == nContents.camel {
		note(nContents.camel)
	}
	var blocks func(bs []traffic.Block)
	blocks = func(bs []traffic.Block) {
		if singlePart(bs) {
			note(bs[0].Path)
		}
		for i := range bs {
			blocks(bs[i].Content)
		}
	}
	blocks(req.System)
	for i := range req.Messages {
		blocks(req.Messages[i].Blocks)
	}
	if key, tools, ok := obj.get(nTools); ok {
		if rawjson.Kind(tools) == "object" {
			note(key)
		}
		items, single, _ := listOf(tools)
		for i, it := range items {
			if t, err := parseObject(it, ""); err == nil {
				if dk, d, ok := t.get(nDeclarations); ok && rawjson.Kind(d) == "object" {
					note(itemPath(key, i, single) + "." + dk)
				}
			}
		}
	}
	return notes
}
