package rawjson

// This file holds typed readers over raw JSON values. Each takes the JSON
// path of the value (built with At and Index), so that every error says
// where the value is and what was expected there.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// At returns the path of key inside the object at path: At("tools[0]",
// "name") is "tools[0].name", and At("", "model") is "model".
func At(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index returns the path of element i of the array at path: Index("messages",
// 3) is "messages[3]".
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// Errorf returns an error about the value at path: "path: message".
func Errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
}

// Describe names the JSON type of raw with its article, for messages:
// "an object", "a string", "null", or "nothing" when raw is empty.
func Describe(raw []byte) string {
	switch k := Kind(raw); k {
	case "object", "array":
		return "an " + k
	case "string", "number", "boolean":
		return "a " + k
	default:
		return k // "null", "nothing"
	}
}

// Mismatch reports that the value at path is of the wrong JSON type, as in
// "messages[0]: expected an object, found a string".
func Mismatch(path, want string, raw []byte) error {
	return fmt.Errorf("%s: expected %s, found %s", path, want, Describe(raw))
}

// Document checks that body is one valid JSON value, naming the byte where
// it is not. name says what the body is, such as "request body".
func Document(name string, body []byte) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return fmt.Errorf("%s: empty body", name)
	}
	if Valid(body) {
		return nil
	}
	return invalid(name, body, errors.New("invalid JSON"))
}

// invalid explains why raw at path is not valid JSON, with the byte offset
// of a syntax error.
func invalid(path string, raw []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(json.Unmarshal(raw, new(json.RawMessage)), &syn) {
		return fmt.Errorf("%s: invalid JSON at byte %d: %v", path, syn.Offset, syn)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// ObjectAt returns the fields of the object at path in document order. A
// key given twice counts once, with its last value, as encoding/json and
// the providers' own parsers read it.
func ObjectAt(path string, raw []byte) ([]Field, error) {
	if Kind(raw) != "object" {
		return nil, Mismatch(path, "an object", raw)
	}
	fields, err := readObject(path, raw)
	if err != nil {
		return nil, invalid(path, raw, err)
	}
	return LastWins(fields), nil
}

// LastWins drops every field whose key comes again later, keeping the order
// of the rest, so decoders never see one key twice.
func LastWins(fields []Field) []Field {
	last := make(map[string]int, len(fields))
	for i, f := range fields {
		last[f.Key] = i
	}
	if len(last) == len(fields) {
		return fields
	}
	kept := make([]Field, 0, len(last))
	for i, f := range fields {
		if last[f.Key] == i {
			kept = append(kept, f)
		}
	}
	return kept
}

// Lookup returns the value of key in fields, the last one when the key is
// repeated, and whether it was there.
func Lookup(fields []Field, key string) (json.RawMessage, bool) {
	for i := len(fields) - 1; i >= 0; i-- {
		if fields[i].Key == key {
			return fields[i].Value, true
		}
	}
	return nil, false
}

// ArrayAt returns the elements of the array at path.
func ArrayAt(path string, raw []byte) ([]json.RawMessage, error) {
	if Kind(raw) != "array" {
		return nil, Mismatch(path, "an array", raw)
	}
	items, err := readArray(path, raw)
	if err != nil {
		return nil, invalid(path, raw, err)
	}
	return items, nil
}

// ValidatedObject is ObjectAt for a whole document the caller has just
// validated (body.Object, Document): it is not validated a second time.
func ValidatedObject(raw []byte) ([]Field, error) {
	fields, err := fieldsOf(raw, nil)
	if err != nil {
		return nil, invalid("", raw, err)
	}
	return LastWins(fields), nil
}

// readObject reads the object at path. The document root (path "") is
// validated; a value at a path inside it is part of a document already
// validated and is not validated again.
func readObject(path string, raw []byte) ([]Field, error) {
	if path == "" {
		return Fields(raw)
	}
	return fieldsOf(raw, nil)
}

// readArray is readObject for an array.
func readArray(path string, raw []byte) ([]json.RawMessage, error) {
	if path == "" {
		return Array(raw)
	}
	return arrayOf(raw)
}

// StringAt returns the string at path.
func StringAt(path string, raw []byte) (string, error) {
	s, ok := String(raw)
	if !ok {
		return "", Mismatch(path, "a string", raw)
	}
	return s, nil
}

// IntAt returns the integer at path. A number with a fraction or exponent,
// or one too large for an int, is not an integer.
func IntAt(path string, raw []byte) (int, error) {
	if Kind(raw) != "number" {
		return 0, Mismatch(path, "an integer", raw)
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil {
		return 0, Errorf(path, "expected an integer, found %s", raw)
	}
	return n, nil
}

// BoolAt returns the boolean at path.
func BoolAt(path string, raw []byte) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, Mismatch(path, "a boolean", raw)
}

// IsNull reports whether raw is the JSON literal null.
func IsNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }
