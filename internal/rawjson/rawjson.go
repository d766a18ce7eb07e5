// Package rawjson reads and writes JSON while keeping values as raw bytes, so
// opaque payloads and key order survive a decode and an encode.
package rawjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Field is one key of a JSON object with its raw value.
type Field struct {
	Key   string
	Value json.RawMessage
}

// Fields decodes a JSON object into its fields in document order. The values
// alias data. It validates data once and then splits it with a scanner, since
// codecs call it on every object of every body.
func Fields(data []byte) ([]Field, error) {
	if err := validate(data); err != nil {
		return nil, err
	}
	return fieldsOf(data, nil)
}

// Array decodes a JSON array into its raw elements. The elements alias data.
func Array(data []byte) ([]json.RawMessage, error) {
	if err := validate(data); err != nil {
		return nil, err
	}
	return arrayOf(data)
}

// errMalformed is what the trusting scanners say about data that was not
// valid after all.
var errMalformed = errors.New("malformed JSON")

// fieldsOf is Fields without the validation pass, for a value inside a
// document already validated: a growing history is then read in time
// linear in its size, not in its size times its depth. The structure (keys,
// colons, commas, brackets) is checked; the values are not. Malformed data
// is an error (not always the first fault), never a panic.
func fieldsOf(data, known []byte) ([]Field, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, fmt.Errorf("expected a JSON object, found %s", kind(data))
	}
	i = skipSpace(data, i+1)
	var fields []Field
	if i < len(data) && data[i] == '}' {
		return fields, closed(data, i)
	}
	fields = make([]Field, 0, 4) // most objects of a request have a few fields: one allocation
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, errMalformed
		}
		end := skipString(data, i)
		key, ok := unquoteKey(data[i:end])
		if !ok {
			return nil, errors.New("invalid object key")
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return nil, errMalformed
		}
		var vend int
		if len(known) > 0 && bytes.HasPrefix(data[i:], known) {
			vend = skipNested(data, i+len(known), 1) // known leaves an array open
		} else {
			vend = skipValue(data, i)
		}
		if vend == i {
			return nil, errMalformed
		}
		fields = append(fields, Field{Key: key, Value: json.RawMessage(data[i:vend])})
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, errMalformed
		}
		if data[i] == '}' {
			return fields, closed(data, i)
		}
		if data[i] != ',' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
	}
}

// arrayOf is Array without the validation pass (see fieldsOf).
func arrayOf(data []byte) ([]json.RawMessage, error) {
	var out []json.RawMessage
	err := eachOf(data, 0, 0, func(_ int, item json.RawMessage, _ int) error {
		out = append(out, item)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachOf calls f with each element of the array data after its first n,
// which end at offset end (0 when n is 0), and the offset just past it,
// checking the array's structure but not its elements (see fieldsOf); it
// stops at f's first error.
func eachOf(data []byte, n, end int, f func(i int, item json.RawMessage, end int) error) error {
	var i int
	var done bool
	var err error
	if end == 0 {
		i, done, err = openArray(data)
	} else {
		i, done, err = afterItem(data, end)
	}
	for ; !done && err == nil; n++ {
		if i >= len(data) {
			return errMalformed
		}
		vend := skipValue(data, i)
		if vend == i {
			return errMalformed
		}
		if err := f(n, json.RawMessage(data[i:vend:vend]), vend); err != nil {
			return err
		}
		i, done, err = afterItem(data, vend)
	}
	return err
}

// openArray reads the opening bracket of the array data: the start of its
// first item, or the closing bracket (done).
func openArray(data []byte) (first int, done bool, err error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return 0, false, fmt.Errorf("expected a JSON array, found %s", kind(data))
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return 0, true, closed(data, i)
	}
	return i, false, nil
}

// afterItem reads what follows an array item that ends at i: a comma and
// the start of the next item, or the closing bracket (done).
func afterItem(data []byte, i int) (next int, done bool, err error) {
	i = skipSpace(data, i)
	switch {
	case i >= len(data):
		return 0, false, errMalformed
	case data[i] == ']':
		return 0, true, closed(data, i)
	case data[i] != ',':
		return 0, false, errMalformed
	}
	return skipSpace(data, i+1), false, nil
}

// closed checks that nothing but whitespace follows the bracket at i.
func closed(data []byte, i int) error {
	if skipSpace(data, i+1) != len(data) {
		return errMalformed
	}
	return nil
}

// ShallowObject reads the fields of the object doc in document order, a
// key given twice included, checking its structure but not its values: for
// a decoder that validates each value itself, some of them once for many
// documents (engine.Memo). Run Valid on every value it does not know to
// be valid, then LastWins.
func ShallowObject(doc []byte) ([]Field, error) { return fieldsOf(doc, nil) }

// ShallowObjectKnowing is ShallowObject for a document one of whose values
// may start with known: an array read before, from its opening bracket
// through one of its items (engine.Memo.LastArray). Such a value is
// scanned from the end of known on, so a growing conversation's request is
// read in time linear in what it adds.
func ShallowObjectKnowing(doc, known []byte) ([]Field, error) { return fieldsOf(doc, known) }

// ValidatedExcept reads the fields of the object doc as ShallowObjectKnowing
// does, and validates each value but the last one of key when that one is
// an array: a decoder that validates that array's items itself, some of
// them once for many documents (engine.Memo.DecodeMessages), then reads a
// growing conversation's request in time linear in what it adds. ok is
// false when doc is not an object or one of those values is not valid.
func ValidatedExcept(doc, known []byte, key string) (fields []Field, ok bool) {
	fields, err := fieldsOf(doc, known)
	if err != nil {
		return nil, false
	}
	last := -1
	for i, f := range fields {
		if f.Key == key {
			last = i
		}
	}
	for i, f := range fields {
		if (i != last || Kind(f.Value) != "array") && !Valid(f.Value) {
			return nil, false
		}
	}
	return fields, true
}

// ShallowEachFrom is ShallowObject for an array: it calls f with each
// element in turn and the offset just past it, without collecting them,
// and stops at f's first error. It starts after the first n elements, which
// end at offset end (0 when n is 0): a caller that knows them already
// (engine.List.Array) does not read them again.
func ShallowEachFrom(doc []byte, n, end int, f func(i int, item json.RawMessage, end int) error) error {
	return eachOf(doc, n, end, f)
}

// validate reports whether data is exactly one well-formed JSON value, with
// encoding/json's own description of the first fault.
func validate(data []byte) error {
	if Valid(data) {
		return nil
	}
	var v json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return errors.New("invalid JSON")
}

// The scanners below run only on data Valid accepted, so they need not
// check for malformed input.

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at data[i]:
// past the first quote after it that an odd run of backslashes does not
// escape. bytes.IndexByte finds quotes many bytes at a time.
func skipString(data []byte, i int) int {
	j := i + 1
	for {
		q := bytes.IndexByte(data[j:], '"')
		if q < 0 {
			return len(data)
		}
		j += q
		k := j
		for data[k-1] == '\\' { // data[i] is a quote, so this stops
			k--
		}
		if (j-k)%2 == 0 {
			return j + 1
		}
		j++
	}
}

// skipValue returns the index just past the value starting at data[i].
func skipValue(data []byte, i int) int {
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		return skipNested(data, i, 0)
	default: // number, true, false, null
		j := i
		for j < len(data) {
			switch data[j] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return j
			}
			j++
		}
		return j
	}
}

// skipNested scans data from j, depth brackets deep and outside a string,
// and returns the index just past the bracket that closes the outermost.
func skipNested(data []byte, j, depth int) int {
	for ; j < len(data); j++ {
		switch data[j] {
		case '"':
			j = skipString(data, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(data)
}

// unquoteKey decodes an object key; a plain key is copied as it is, without
// json.Unmarshal.
func unquoteKey(q []byte) (string, bool) {
	if len(q) >= 2 && q[len(q)-1] == '"' && plain(q[1:len(q)-1]) {
		if k, ok := commonKeys[string(q[1:len(q)-1])]; ok {
			return k, true // no allocation for the keys every request repeats
		}
		return string(q[1 : len(q)-1]), true
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", false
	}
	return s, true
}

// commonKeys are the object keys of the providers' requests and answers,
// each mapped to itself: a key read from a document is looked up here
// before a string is made of it.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{
		// Anthropic Messages
		"model", "max_tokens", "messages", "system", "tools", "tool_choice", "thinking", "stream", "metadata",
		"temperature", "top_p", "top_k", "stop_sequences", "role", "content", "type", "text", "id", "name",
		"input", "tool_use_id", "is_error", "signature", "data", "cache_control", "source", "media_type",
		"input_schema", "description", "budget_tokens", "stop_reason", "stop_sequence", "usage",
		"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
		// OpenAI Chat Completions and Responses
		"tool_calls", "tool_call_id", "function", "arguments", "parameters", "choices", "index", "message",
		"finish_reason", "object", "created", "prompt_tokens", "completion_tokens", "total_tokens",
		"reasoning_effort", "response_format", "max_completion_tokens", "n", "store", "include",
		"previous_response_id", "output", "status", "call_id", "encrypted_content", "summary", "reasoning",
		"instructions", "annotations", "strict", "refusal",
		// Gemini
		"contents", "parts", "functionCall", "functionResponse", "args", "response", "thoughtSignature",
		"thought", "generationConfig", "systemInstruction", "candidates", "finishReason", "usageMetadata",
		"promptTokenCount", "candidatesTokenCount", "totalTokenCount", "inlineData", "mimeType",
		"functionDeclarations", "toolConfig",
	} {
		m[k] = k
	}
	return m
}()

// kind names the JSON type of data for error messages.
func kind(data []byte) string {
	b := bytes.TrimLeft(data, " \t\r\n")
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// Kind names the JSON type of a raw value: object, array, string, number, boolean, null.
func Kind(data []byte) string {
	k := kind(data)
	switch k {
	case "an object":
		return "object"
	case "an array":
		return "array"
	case "a string":
		return "string"
	case "a boolean":
		return "boolean"
	case "a number":
		return "number"
	}
	return k
}

// String unquotes a raw JSON string. ok is false when raw is not a string.
// Plain strings (no escapes, no control bytes, valid UTF-8: most signatures
// and ids) are sliced without running the decoder.
func String(raw json.RawMessage) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && plain(inner) {
		return string(inner), true
	}
	return unquote(raw)
}

// StringBytes is String without the allocation for a plain string: its
// bytes are raw's own, to read and not to keep or change.
func StringBytes(raw json.RawMessage) ([]byte, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		if inner := raw[1 : len(raw)-1]; plain(inner) {
			return inner, true
		}
	}
	s, ok := String(raw)
	return []byte(s), ok
}

// plain reports whether b can stand between JSON quotes as it is.
func plain(b []byte) bool {
	return bytes.IndexByte(b, '\\') < 0 && bytes.IndexByte(b, '"') < 0 && noControl(b) && utf8.Valid(b)
}

// Quote encodes s as a JSON string with HTML escaping off.
func Quote(s string) json.RawMessage {
	b, _ := Marshal(s)
	return b
}

// Marshal encodes v like json.Marshal but leaves <, > and & unescaped.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Object builds a JSON object with keys in the order they are added.
type Object struct {
	buf bytes.Buffer
	n   int
}

// Raw adds key with a raw value. A nil or empty value is skipped.
func (o *Object) Raw(key string, v json.RawMessage) {
	if len(v) == 0 {
		return
	}
	if o.n == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	o.buf.Write(Quote(key))
	o.buf.WriteByte(':')
	o.buf.Write(v)
	o.n++
}

// String adds key with a string value.
func (o *Object) String(key, v string) { o.Raw(key, Quote(v)) }

// StringNonEmpty adds key only when v is not empty.
func (o *Object) StringNonEmpty(key, v string) {
	if v != "" {
		o.String(key, v)
	}
}

// Bool adds key with a boolean value.
func (o *Object) Bool(key string, v bool) { o.Raw(key, json.RawMessage(strconv.FormatBool(v))) }

// Int adds key with an integer value.
func (o *Object) Int(key string, v int) { o.Raw(key, json.RawMessage(strconv.Itoa(v))) }

// Value adds key with v encoded by Marshal.
func (o *Object) Value(key string, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	o.Raw(key, b)
	return nil
}

// Extra adds every key of m not already in skip, in sorted key order.
func (o *Object) Extra(m map[string]json.RawMessage) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.Raw(k, m[k])
	}
}

// Bytes returns the object; an object with no keys is "{}".
func (o *Object) Bytes() json.RawMessage {
	if o.n == 0 {
		return json.RawMessage("{}")
	}
	b := append([]byte(nil), o.buf.Bytes()...)
	return append(b, '}')
}

// ArrayOf joins raw values into a JSON array.
func ArrayOf(items []json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(it)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}

// Equal reports whether a and b are the same JSON value (key order and
// insignificant whitespace ignored; numbers compared by their text).
func Equal(a, b []byte) bool {
	va, err1 := decodeNumbers(a)
	vb, err2 := decodeNumbers(b)
	if err1 != nil || err2 != nil {
		return bytes.Equal(a, b)
	}
	return equalValues(va, vb)
}

func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, e1 := x.Float64()
		fy, e2 := y.Float64()
		return e1 == nil && e2 == nil && fx == fy
	default:
		return a == b
	}
}

// AppendCompact appends raw to dst without the whitespace between its
// tokens, without allocating. raw must be valid JSON (a token a codec
// sliced out of a validated body); string contents are copied untouched.
func AppendCompact(dst, raw []byte) []byte {
	inString, escaped := false, false
	start := 0
	for i, c := range raw {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...)
}

// Compact returns data with insignificant whitespace removed, or data itself
// when it is not valid JSON.
func Compact(data []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return data
	}
	return buf.Bytes()
}

// SetExtra records a raw value under key in a lazily made map of the wire
// fields a model does not name. A key with invalid UTF-8 is stored as it
// will encode (with U+FFFD), so decoding the encoded body gives the same map.
func SetExtra(m *map[string]json.RawMessage, key string, v json.RawMessage) {
	key = strings.ToValidUTF8(key, "\uFFFD")
	if *m == nil {
		*m = map[string]json.RawMessage{}
	}
	(*m)[key] = v
}

// Canonical returns data with insignificant whitespace removed and every
// string written in one escaping (UTF-8 as is, no HTML escapes), keeping
// key order and the text of numbers: two encodings of one document that a
// reader keeping key order and number text cannot tell apart have the same
// Canonical form. Invalid JSON is returned as it is.
func Canonical(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	// needComma[i] is true once container i holds a value; isKey[i] when
	// the next string of object i is a key.
	var needComma, inObject []bool
	var isKey []bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return data
		}
		n := len(needComma)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			needComma, inObject, isKey = needComma[:n-1], inObject[:n-1], isKey[:n-1]
			if n > 1 && inObject[n-2] {
				isKey[n-2] = !isKey[n-2]
			}
			continue
		}
		if n > 0 {
			switch {
			case inObject[n-1] && !isKey[n-1]:
				out.WriteByte(':')
			case needComma[n-1]:
				out.WriteByte(',')
			}
			needComma[n-1] = true
		}
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			needComma, inObject, isKey = append(needComma, false), append(inObject, v == '{'), append(isKey, v == '{')
			continue
		case json.Number:
			out.WriteString(v.String())
		case string:
			enc.Encode(v)
			out.Truncate(out.Len() - 1) // Encode's newline
		case bool:
			out.WriteString(strconv.FormatBool(v))
		case nil:
			out.WriteString("null")
		}
		if n > 0 && inObject[n-1] {
			isKey[n-1] = !isKey[n-1]
		}
	}
	if len(needComma) > 0 || dec.More() {
		return data
	}
	return out.Bytes()
}
