package responses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// object is one decoded JSON object: its fields in document order and the
// keys a decoder has taken into the model, so that the rest becomes Extra.
// A repeated key counts once, its last value winning, as in encoding/json.
type object struct {
	path   string
	fields []rawjson.Field
	taken  map[string]bool
}

// parseObject reads raw as a JSON object found at path.
func parseObject(raw json.RawMessage, path string) (*object, error) {
	if rawjson.Kind(raw) != "object" {
		return nil, rawjson.Mismatch(path, "an object", raw)
	}
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &object{path: path, fields: fields, taken: map[string]bool{}}, nil
}

// get returns the raw value of key, or nil when absent.
func (o *object) get(key string) json.RawMessage {
	v, _ := rawjson.Lookup(o.fields, key)
	return v
}

// take returns the raw value of key and marks it as taken into the model.
func (o *object) take(key string) json.RawMessage {
	v := o.get(key)
	if v != nil {
		o.taken[key] = true
	}
	return v
}

// str returns key's value when it is a string, without taking it.
func (o *object) str(key string) (string, bool) { return rawjson.String(o.get(key)) }

// takeString takes key when its value is a non-empty string. Empty strings,
// nulls and other kinds stay in Extra, so that encoding writes them back.
func (o *object) takeString(key string) string {
	s, ok := o.str(key)
	if !ok || s == "" {
		return ""
	}
	o.taken[key] = true
	return s
}

// rest returns the fields not taken, or nil when there are none.
func (o *object) rest() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	for _, f := range o.fields {
		if o.taken[f.Key] {
			continue
		}
		if m == nil {
			m = map[string]json.RawMessage{}
		}
		m[f.Key] = f.Value
	}
	return m
}

// writer builds a JSON object and remembers the keys written, so that Extra
// never repeats a key the model already wrote.
type writer struct {
	obj  rawjson.Object
	keys map[string]bool
}

func (w *writer) raw(key string, v json.RawMessage) {
	if len(v) == 0 || w.keys[key] {
		return
	}
	if w.keys == nil {
		w.keys = map[string]bool{}
	}
	w.keys[key] = true
	w.obj.Raw(key, v)
}

func (w *writer) str(key, v string) { w.raw(key, rawjson.Quote(v)) }

func (w *writer) strNonEmpty(key, v string) {
	if v != "" {
		w.str(key, v)
	}
}

// extra writes m's keys that were not written yet, in sorted order.
func (w *writer) extra(m map[string]json.RawMessage) {
	rest := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		if !w.keys[k] {
			rest[k] = v
		}
	}
	w.obj.Extra(rest)
	for k := range rest {
		if w.keys == nil {
			w.keys = map[string]bool{}
		}
		w.keys[k] = true
	}
}

func (w *writer) bytes() json.RawMessage { return w.obj.Bytes() }

// intValue reads a JSON integer written as plain digits; anything else
// (fractions, exponents, huge values) is not taken, so it survives as Extra.
func intValue(raw json.RawMessage) (int, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(string(raw))
	if err != nil || strconv.Itoa(n) != string(raw) {
		return 0, false
	}
	return n, true
}

// textOf reads an optional string-or-number field as text, for error codes
// that some hosts send as numbers.
func textOf(raw json.RawMessage) string {
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	switch rawjson.Kind(raw) {
	case "number", "boolean":
		return string(bytes.TrimSpace(raw))
	}
	return ""
}
