package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// This file holds the small typed readers over raw JSON values. Each takes
// the JSON path of the value so that every error says where and what.

// pathErr formats an error at a JSON path.
func pathErr(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
}

// mismatch reports that the value at path is of the wrong JSON type.
func mismatch(path, want string, raw []byte) error {
	return pathErr(path, "expected %s, found %s", want, found(raw))
}

// found names the JSON type of raw with its article, for messages.
func found(raw []byte) string {
	switch k := rawjson.Kind(raw); k {
	case "object", "array":
		return "an " + k
	case "null", "nothing":
		return k
	default:
		return "a " + k
	}
}

// at returns the path of key inside the object at path.
func at(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// index returns the path of element i of the array at path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// document checks that body is one valid JSON value, naming the byte where
// it is not.
func document(name string, body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("%s: empty body", name)
	}
	if json.Valid(body) {
		return nil
	}
	var v json.RawMessage
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s: invalid JSON at byte %d: %v", name, se.Offset, se)
	}
	return fmt.Errorf("%s: invalid JSON: %v", name, err)
}

// object returns the fields of the object at path, in document order.
func object(path string, raw []byte) ([]rawjson.Field, error) {
	if rawjson.Kind(raw) != "object" {
		return nil, mismatch(path, "an object", raw)
	}
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return nil, pathErr(path, "%v", err)
	}
	return lastWins(fields), nil
}

// lastWins drops every field that the same key repeats later, so a repeated
// key means what encoding/json makes of it (the last value) and decoders
// never see one key twice.
func lastWins(fields []rawjson.Field) []rawjson.Field {
	last := make(map[string]int, len(fields))
	for i, f := range fields {
		last[f.Key] = i
	}
	if len(last) == len(fields) {
		return fields
	}
	kept := make([]rawjson.Field, 0, len(last))
	for i, f := range fields {
		if last[f.Key] == i {
			kept = append(kept, f)
		}
	}
	return kept
}

// array returns the elements of the array at path.
func array(path string, raw []byte) ([]json.RawMessage, error) {
	if rawjson.Kind(raw) != "array" {
		return nil, mismatch(path, "an array", raw)
	}
	items, err := rawjson.Array(raw)
	if err != nil {
		return nil, pathErr(path, "%v", err)
	}
	return items, nil
}

// str returns the string at path.
func str(path string, raw []byte) (string, error) {
	s, ok := rawjson.String(raw)
	if !ok {
		return "", mismatch(path, "a string", raw)
	}
	return s, nil
}

// integer returns the integer at path.
func integer(path string, raw []byte) (int, error) {
	if rawjson.Kind(raw) != "number" {
		return 0, mismatch(path, "an integer", raw)
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil {
		return 0, pathErr(path, "expected an integer, found %s", raw)
	}
	return n, nil
}

// boolean returns the boolean at path.
func boolean(path string, raw []byte) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, mismatch(path, "a boolean", raw)
}

// isNull reports whether raw is the JSON null.
func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

// lookup returns the value of key in fields (the last one when repeated, as
// encoding/json does).
func lookup(fields []rawjson.Field, key string) (json.RawMessage, bool) {
	for i := len(fields) - 1; i >= 0; i-- {
		if fields[i].Key == key {
			return fields[i].Value, true
		}
	}
	return nil, false
}

// lookupString returns the string value of key, or "" when it is absent or
// not a string.
func lookupString(fields []rawjson.Field, key string) string {
	v, _ := lookup(fields, key)
	s, _ := rawjson.String(v)
	return s
}

// lookupInt returns the integer value of key and whether it was one.
func lookupInt(fields []rawjson.Field, key string) (int, bool) {
	v, ok := lookup(fields, key)
	if !ok {
		return 0, false
	}
	n, err := integer(key, v)
	return n, err == nil
}

// setExtra records a raw value under key in a lazily made map. A key with
// invalid UTF-8 is stored as it will encode (with U+FFFD), so that decoding
// the encoded body gives the same map.
func setExtra(m *map[string]json.RawMessage, key string, v json.RawMessage) {
	key = strings.ToValidUTF8(key, "\uFFFD")
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = v
}
