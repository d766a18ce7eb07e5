package rawjson

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/corpus"
)

func TestPathBuilding(t *testing.T) {
	if got := At("", "model"); got != "model" {
		t.Errorf(`At("", "model") = %q`, got)
	}
	if got := At(Index("messages", 3), "content"); got != "messages[3].content" {
		t.Errorf("path = %q", got)
	}
}

func TestDescribeAndMismatch(t *testing.T) {
	for raw, want := range map[string]string{
		`{}`: "an object", ` [1]`: "an array", `"s"`: "a string", `1.5`: "a number",
		`false`: "a boolean", `null`: "null", ``: "nothing", ` `: "nothing",
	} {
		if got := Describe([]byte(raw)); got != want {
			t.Errorf("Describe(%q) = %q, want %q", raw, got, want)
		}
	}
	err := Mismatch("messages[0]", "an object", []byte(`"hi"`))
	if got := err.Error(); got != "messages[0]: expected an object, found a string" {
		t.Errorf("Mismatch = %q", got)
	}
}

func TestDocument(t *testing.T) {
	for body, want := range map[string]string{
		`{"a":1}`: "",
		" \n":     "request body: empty body",
		`{"a":}`:  "request body: invalid JSON at byte 6: invalid character '}' looking for beginning of value",
		`{"a":1`:  "request body: invalid JSON at byte 6: unexpected end of JSON input",
	} {
		err := Document("request body", []byte(body))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("Document(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestObjectAtLastKeyWins(t *testing.T) {
	got, err := ObjectAt("body", []byte(`{"a":1,"b":"x","a":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{{"b", json.RawMessage(`"x"`)}, {"a", json.RawMessage(`[2]`)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ObjectAt (-want +got):\n%s", diff)
	}
	if v, ok := Lookup(got, "a"); !ok || string(v) != "[2]" {
		t.Errorf("Lookup(a) = %s, %t", v, ok)
	}
	if _, ok := Lookup(got, "c"); ok {
		t.Error("Lookup(c) found a missing key")
	}
}

func TestReaderErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"object kind", second(ObjectAt("tools[0]", []byte(`1`))), "tools[0]: expected an object, found a number"},
		// The document root is validated; a value inside it is trusted to be
		// part of a validated document, and reports only a broken structure.
		{"object syntax", second(ObjectAt("", []byte(`{"a" 1}`))), ": invalid JSON at byte 6: invalid character '1' after object key"},
		{"nested object cut", second(ObjectAt("request body", []byte(`{"a":1`))), "request body: invalid JSON at byte 6: unexpected end of JSON input"},
		{"array kind", second(ArrayAt("messages", []byte(`{}`))), "messages: expected an array, found an object"},
		{"array syntax", second(ArrayAt("", []byte(`[1,]`))), ": invalid JSON at byte 4: invalid character ']' looking for beginning of value"},
		{"nested array cut", second(ArrayAt("messages", []byte(`[1,`))), "messages: invalid JSON at byte 3: unexpected end of JSON input"},
		{"string", second(StringAt("model", []byte(`null`))), "model: expected a string, found null"},
		{"int kind", second(IntAt("max_tokens", []byte(`"5"`))), "max_tokens: expected an integer, found a string"},
		{"int fraction", second(IntAt("max_tokens", []byte(`1.5`))), "max_tokens: expected an integer, found 1.5"},
		{"bool", second(BoolAt("stream", []byte(`1`))), "stream: expected a boolean, found a number"},
		{"errorf", Errorf("content[2]", "block type %q unknown", "x"), `content[2]: block type "x" unknown`},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.name, c.err, c.want)
		}
	}
}

func TestScalarReaders(t *testing.T) {
	if s, err := StringAt("p", []byte(`"a\u00e9"`)); err != nil || s != "aé" {
		t.Errorf("StringAt = %q, %v", s, err)
	}
	if n, err := IntAt("p", []byte(` -42 `)); err != nil || n != -42 {
		t.Errorf("IntAt = %d, %v", n, err)
	}
	if b, err := BoolAt("p", []byte(`true`)); err != nil || !b {
		t.Errorf("BoolAt = %t, %v", b, err)
	}
	if items, err := ArrayAt("p", []byte(`[1, "a"]`)); err != nil || len(items) != 2 {
		t.Errorf("ArrayAt = %q, %v", items, err)
	}
	if !IsNull([]byte(" null ")) || IsNull([]byte(`"null"`)) {
		t.Error("IsNull disagrees with JSON null")
	}
}

func second[T any](_ T, err error) error { return err }

// FuzzPathReaders walks any document with the readers: they never panic,
// every error names a path inside the document, and objects read as
// encoding/json reads them, the last repeated key winning. It is seeded
// with the JSON lines of the real corpus recordings.
func FuzzPathReaders(f *testing.F) {
	f.Add([]byte(`{"a":1,"a":{"b":[true,null,"x",1.5]}}`))
	f.Add([]byte(`[{"k":"v"},2,"s"]`))
	for _, line := range corpusJSONLines(f, 8) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := Document("body", data); err != nil {
			if !strings.HasPrefix(err.Error(), "body: ") {
				t.Fatalf("Document error %q does not name the body", err)
			}
			return
		}
		walk(t, "body", data, 0)
	})
}

// walk reads raw at path with every reader and descends into it.
func walk(t *testing.T, path string, raw []byte, depth int) {
	for _, err := range []error{
		second(StringAt(path, raw)), second(IntAt(path, raw)), second(BoolAt(path, raw)),
	} {
		if err != nil && !strings.HasPrefix(err.Error(), path+": expected ") {
			t.Fatalf("error %q does not name path %q", err, path)
		}
	}
	if depth > 20 {
		return
	}
	switch Kind(raw) {
	case "object":
		fields, err := ObjectAt(path, raw)
		if err != nil {
			t.Fatalf("ObjectAt(%s): %v", path, err)
		}
		checkLikeEncodingJSON(t, raw, fields)
		for _, f := range fields {
			walk(t, At(path, f.Key), f.Value, depth+1)
		}
	case "array":
		items, err := ArrayAt(path, raw)
		if err != nil {
			t.Fatalf("ArrayAt(%s): %v", path, err)
		}
		for i, it := range items {
			walk(t, Index(path, i), it, depth+1)
		}
	}
}

// checkLikeEncodingJSON compares fields with encoding/json's reading of raw.
func checkLikeEncodingJSON(t *testing.T, raw []byte, fields []Field) {
	if !utf8.Valid(raw) {
		return // encoding/json rewrites invalid UTF-8 in keys
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("encoding/json rejects %q: %v", raw, err)
	}
	if len(m) != len(fields) {
		t.Fatalf("%d fields, encoding/json finds %d keys in %q", len(fields), len(m), raw)
	}
	for _, f := range fields {
		if !bytes.Equal(m[f.Key], f.Value) {
			t.Fatalf("key %q: %s, encoding/json reads %s", f.Key, f.Value, m[f.Key])
		}
	}
}

// corpusJSONLines returns up to perFile lines of each corpus recording that
// are whole JSON values on their own (SSE data lines included).
func corpusJSONLines(tb testing.TB, perFile int) [][]byte {
	var out [][]byte
	for _, path := range corpus.Files(tb) {
		n := 0
		file, err := os.Open(path)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() && n < perFile {
			line := bytes.TrimSpace(sc.Bytes())
			line = bytes.TrimPrefix(line, []byte("data:"))
			line = bytes.TrimSpace(line)
			if len(line) > 1 && (line[0] == '{' || line[0] == '[') && json.Valid(line) {
				out = append(out, bytes.Clone(line))
				n++
			}
		}
		if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
			tb.Fatalf("%s: %v", corpus.Name(tb, path), err)
		}
		file.Close()
	}
	return out
}

// FuzzTrustingReaders: ObjectAt and ArrayAt below the document root do not
// validate again, so on data that was never validated they may accept a
// fault, but they never panic, and on valid data they read what Fields and
// Array read.
func FuzzTrustingReaders(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[true,null,"x",1.5]}}`))
	f.Add([]byte(`[{"k":"v"},2,"s"]`))
	f.Add([]byte(`{"a" 1`))
	f.Add([]byte(`[1,`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, ferr := ObjectAt("x", data)
		items, aerr := ArrayAt("x", data)
		if !json.Valid(data) {
			return
		}
		if want, err := Fields(data); err == nil && (ferr != nil || len(LastWins(want)) != len(fields)) {
			t.Fatalf("ObjectAt read %d fields (%v), Fields %d", len(fields), ferr, len(LastWins(want)))
		}
		if want, err := Array(data); err == nil && (aerr != nil || len(want) != len(items)) {
			t.Fatalf("ArrayAt read %d items (%v), Array %d", len(items), aerr, len(want))
		}
	})
}

// FuzzShallowValidation: a document whose structure ShallowObject (or
// ShallowArray) accepts and each of whose values is valid is valid: the
// piecewise validation of memoised decoding accepts nothing json.Valid
// refuses.
func FuzzShallowValidation(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[true,null,"x",1.5]}}`))
	f.Add([]byte(`[{"k":"v"},2,"s"]`))
	f.Add([]byte(`{"a":1 "b":2}`))
	f.Add([]byte(`[1 2]`))
	f.Add([]byte(`{"a":1,}`))
	f.Add([]byte(`{"a":1} x`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var values [][]byte
		if fields, err := fieldsOf(data, nil); err == nil {
			for _, fd := range fields {
				values = append(values, fd.Value)
			}
		} else if items, err := arrayOf(data); err == nil {
			for _, it := range items {
				values = append(values, it)
			}
		} else {
			return
		}
		for _, v := range values {
			if !json.Valid(v) {
				return
			}
		}
		if !json.Valid(data) {
			t.Fatalf("%q: structure and values accepted, json.Valid refuses it", data)
		}
	})
}
