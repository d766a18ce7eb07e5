package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// index appends an array index to a JSON path: index("messages", 3) is "messages[3]".
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// field appends an object key to a JSON path.
func field(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// expected is the error for a value of the wrong JSON type at path.
func expected(path, want string, found json.RawMessage) error {
	return fmt.Errorf("%s: expected %s, found %s", path, want, describe(found))
}

// describe names a raw value's JSON type with its article, for errors.
func describe(v json.RawMessage) string {
	switch k := rawjson.Kind(v); k {
	case "object", "array":
		return "an " + k
	case "string", "number", "boolean":
		return "a " + k
	default:
		return k // "null", "nothing"
	}
}

// object splits a raw JSON object into its fields, or says what it found
// instead. A key given twice counts once, with its last value, as JSON
// parsers on the provider side read it.
func object(path string, v json.RawMessage) ([]rawjson.Field, error) {
	if rawjson.Kind(v) != "object" {
		return nil, expected(path, "an object", v)
	}
	fields, err := rawjson.Fields(v)
	if err != nil {
		return nil, invalid(path, v, err)
	}
	return lastOfEachKey(fields), nil
}

func lastOfEachKey(fields []rawjson.Field) []rawjson.Field {
	last := make(map[string]int, len(fields))
	for i, f := range fields {
		last[f.Key] = i
	}
	if len(last) == len(fields) {
		return fields
	}
	out := make([]rawjson.Field, 0, len(last))
	for i, f := range fields {
		if last[f.Key] == i {
			out = append(out, f)
		}
	}
	return out
}

// invalid explains a JSON syntax error with its byte offset.
func invalid(path string, v json.RawMessage, err error) error {
	var syn *json.SyntaxError
	if errors.As(json.Unmarshal(v, new(json.RawMessage)), &syn) {
		return fmt.Errorf("%s: invalid JSON at byte %d: %v", path, syn.Offset, syn)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// array splits a raw JSON array into its elements, or says what it found instead.
func array(path string, v json.RawMessage) ([]json.RawMessage, error) {
	if rawjson.Kind(v) != "array" {
		return nil, expected(path, "an array", v)
	}
	items, err := rawjson.Array(v)
	if err != nil {
		return nil, invalid(path, v, err)
	}
	return items, nil
}

// isNull reports whether a raw value is JSON null.
func isNull(v json.RawMessage) bool { return string(v) == "null" }

// setExtra records a wire field the model does not name, allocating the map on first use.
func setExtra(m *map[string]json.RawMessage, key string, v json.RawMessage) {
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = v
}

// writeExtra adds every Extra key not in skip, in sorted order.
func writeExtra(o *rawjson.Object, extra map[string]json.RawMessage, skip func(key string) bool) {
	if len(extra) == 0 {
		return
	}
	rest := make(map[string]json.RawMessage, len(extra))
	for k, v := range extra {
		if skip == nil || !skip(k) {
			rest[k] = v
		}
	}
	o.Extra(rest)
}

// excerpt shortens text for an error or issue message.
func excerpt(b []byte) string {
	const max = 120
	if len(b) <= max {
		return string(b)
	}
	return string(b[:max]) + "…"
}
