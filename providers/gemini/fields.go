package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// name is a field the codec interprets, with both spellings Gemini accepts:
// the REST camelCase and the proto snake_case.
type name struct{ camel, snake string }

func (n name) is(key string) bool { return key == n.camel || key == n.snake }

var (
	nText      = name{"text", "text"}
	nThought   = name{"thought", "thought"}
	nSignature = name{"thoughtSignature", "thought_signature"}
	nCall      = name{"functionCall", "function_call"}
	nResponse  = name{"functionResponse", "function_response"}
	nInline    = name{"inlineData", "inline_data"}
	nMimeType  = name{"mimeType", "mime_type"}

	nID       = name{"id", "id"}
	nName     = name{"name", "name"}
	nArgs     = name{"args", "args"}
	nResult   = name{"response", "response"}
	nParts    = name{"parts", "parts"}
	nRole     = name{"role", "role"}
	nContents = name{"contents", "contents"}

	nModel          = name{"model", "model"}
	nSystem         = name{"systemInstruction", "system_instruction"}
	nTools          = name{"tools", "tools"}
	nDeclarations   = name{"functionDeclarations", "function_declarations"}
	nToolConfig     = name{"toolConfig", "tool_config"}
	nGenConfig      = name{"generationConfig", "generation_config"}
	nThinkingConfig = name{"thinkingConfig", "thinking_config"}
	nMaxTokens      = name{"maxOutputTokens", "max_output_tokens"}
	nIncludeThought = name{"includeThoughts", "include_thoughts"}
	nBudget         = name{"thinkingBudget", "thinking_budget"}
	nLevel          = name{"thinkingLevel", "thinking_level"}
	nDescription    = name{"description", "description"}
)

// schemaNames are the keys a function declaration may carry its input
// schema under.
var schemaNames = []name{
	{"parameters", "parameters"},
	{"parametersJsonSchema", "parameters_json_schema"},
}

// object is a decoded JSON object: its fields in order, for lookups by name.
type object struct {
	fields []rawjson.Field
}

// parseObject decodes raw as an object, or says at path what it found instead.
func parseObject(raw json.RawMessage, path string) (object, error) {
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return object{}, rawjson.Mismatch(path, "an object", raw)
	}
	return object{fields: fields}, nil
}

// get returns the value of the field spelled either way, and the spelling
// found. ok is false when the field is absent.
func (o object) get(n name) (key string, v json.RawMessage, ok bool) {
	for _, f := range o.fields {
		if n.is(f.Key) {
			return f.Key, f.Value, true
		}
	}
	return "", nil, false
}

// value returns the field's value, or nil when absent.
func (o object) value(n name) json.RawMessage {
	_, v, _ := o.get(n)
	return v
}

// str returns the field as a string; "" when absent or not a string.
func (o object) str(n name) string {
	s, _ := rawjson.String(o.value(n))
	return s
}

// duplicate returns a key that occurs twice, counting the two spellings of
// one field as the same key, or "" when there is none.
func (o object) duplicate(known ...name) string {
	seen := make(map[string]bool, len(o.fields))
	for _, f := range o.fields {
		k := f.Key
		for _, n := range known {
			if n.is(k) {
				k = n.camel
			}
		}
		if seen[k] {
			return f.Key
		}
		seen[k] = true
	}
	return ""
}

// isTrue reports whether raw is the JSON literal true.
func isTrue(raw json.RawMessage) bool { return bytes.Equal(raw, []byte("true")) }

// intValue reads a JSON integer, or a decimal string: proto's JSON mapping
// accepts either for an integer field. ok is false for anything else.
func intValue(raw json.RawMessage) (int, bool) {
	if s, ok := rawjson.String(raw); ok {
		raw = json.RawMessage(s)
	}
	var n int
	if len(raw) == 0 || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	return n, true
}

// listOf reads a repeated field: an array, or one object, which Google's
// JSON parser accepts as a list of one (Gemini answered 200 to a
// systemInstruction whose parts was an object; docs/provider-rules.md §4.2).
// single reports the second form.
func listOf(raw json.RawMessage) (items []json.RawMessage, single bool, err error) {
	if rawjson.Kind(raw) == "object" {
		return []json.RawMessage{raw}, true, nil
	}
	items, err = rawjson.Array(raw)
	return items, false, err
}

// itemPath is where item i of a list at path is: the list itself when it
// was one value.
func itemPath(path string, i int, single bool) string {
	if single {
		return path
	}
	return fmt.Sprintf("%s[%d]", path, i)
}

// singlePart reports whether blocks came from parts written as one object:
// their only block's path names the list itself.
func singlePart(blocks []traffic.Block) bool {
	return len(blocks) == 1 && strings.HasSuffix(blocks[0].Path, ".parts")
}

// set is one field of an object as the model says it should be.
type set struct {
	name  name
	value json.RawMessage // nil removes the field
	// same reports whether the raw value already says what the model says,
	// so a value the model cannot represent exactly is kept as it was.
	same func(raw json.RawMessage) bool
}

// sameBytes is a set.same for fields whose model value is the raw token.
func sameBytes(v json.RawMessage) func(json.RawMessage) bool {
	return func(raw json.RawMessage) bool { return bytes.Equal(raw, v) }
}

// sameString is a set.same for string fields the model holds unquoted.
func sameString(s string) func(json.RawMessage) bool {
	return func(raw json.RawMessage) bool {
		got, _ := rawjson.String(raw)
		return got == s
	}
}

// optString is the raw value of a string field that is written only when
// not empty.
func optString(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return rawjson.Quote(s)
}

// patch applies sets to the object raw (nil: an empty object), keeping every
// other field, the order of fields and the spelling of each key. When no set
// changes anything, raw itself is returned, byte for byte. Fields raw lacks
// are added at the end in camelCase, or in snake_case when snake is true.
func patch(raw json.RawMessage, snake bool, sets ...set) json.RawMessage {
	var fields []rawjson.Field
	if raw != nil {
		fields, _ = rawjson.Fields(raw)
	}
	var o rawjson.Object
	done := make([]bool, len(sets))
	changed := raw == nil
	for _, f := range fields {
		i := indexOf(sets, f.Key)
		if i < 0 || done[i] {
			o.Raw(f.Key, f.Value)
			continue
		}
		done[i] = true
		if sets[i].same(f.Value) {
			o.Raw(f.Key, f.Value)
			continue
		}
		changed = true
		o.Raw(f.Key, sets[i].value)
	}
	for i, s := range sets {
		if done[i] || len(s.value) == 0 {
			continue
		}
		changed = true
		key := s.name.camel
		if snake {
			key = s.name.snake
		}
		o.Raw(key, s.value)
	}
	if !changed {
		return raw
	}
	return o.Bytes()
}

func indexOf(sets []set, key string) int {
	for i, s := range sets {
		if s.name.is(key) {
			return i
		}
	}
	return -1
}

// isSnake reports whether key is spelled in snake_case.
func isSnake(key string) bool { return bytes.IndexByte([]byte(key), '_') >= 0 }
