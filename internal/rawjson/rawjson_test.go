package rawjson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFieldsKeepsOrderAndBytes(t *testing.T) {
	in := []byte(` { "b" : "x\u003c" , "a":[1, 2 ],"sig":"Eq+/==" ,"n": 1.50 } `)
	got, err := Fields(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{
		{"b", json.RawMessage(`"x\u003c"`)},
		{"a", json.RawMessage(`[1, 2 ]`)},
		{"sig", json.RawMessage(`"Eq+/=="`)},
		{"n", json.RawMessage(`1.50`)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Fields mismatch (-want +got):\n%s", diff)
	}
}

func TestFieldsErrors(t *testing.T) {
	for _, in := range []string{``, `[]`, `"s"`, `{"a":}`, `{"a":1} x`, `{"a":1`} {
		if _, err := Fields([]byte(in)); err == nil {
			t.Errorf("Fields(%q): want an error", in)
		}
	}
}

func TestArray(t *testing.T) {
	got, err := Array([]byte(`[ {"a":1} , "s",3 ]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []json.RawMessage{json.RawMessage(`{"a":1}`), json.RawMessage(`"s"`), json.RawMessage(`3`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Array mismatch (-want +got):\n%s", diff)
	}
	if _, err := Array([]byte(`{}`)); err == nil {
		t.Error("Array of an object: want an error")
	}
}

func TestObjectBuilderNoHTMLEscaping(t *testing.T) {
	var o Object
	o.String("text", "<b>&</b>")
	o.Raw("sig", json.RawMessage(`"a+b/c=="`))
	o.Raw("skipped", nil)
	o.Bool("ok", true)
	o.Int("n", 3)
	o.Extra(map[string]json.RawMessage{"z": json.RawMessage(`1`), "y": json.RawMessage(`2`)})
	want := `{"text":"<b>&</b>","sig":"a+b/c==","ok":true,"n":3,"y":2,"z":1}`
	if got := string(o.Bytes()); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	var empty Object
	if got := string(empty.Bytes()); got != "{}" {
		t.Errorf("empty object = %s", got)
	}
}

func TestEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{ "b":[1,2], "a":1 }`, true},
		{`{"a":"<"}`, `{"a":"\u003c"}`, true},
		{`{"a":1.0}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":2}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":null}`, `{}`, false},
	} {
		if got := Equal([]byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("Equal(%s, %s) = %t", tt.a, tt.b, got)
		}
	}
}

func TestStringAndQuote(t *testing.T) {
	if s, ok := String(json.RawMessage(`"a\nb"`)); !ok || s != "a\nb" {
		t.Errorf("String = %q, %t", s, ok)
	}
	if _, ok := String(json.RawMessage(`12`)); ok {
		t.Error("String of a number: ok")
	}
	if q := Quote("<&>"); string(q) != `"<&>"` {
		t.Errorf("Quote escaped HTML: %s", q)
	}
}

// FuzzFields checks that each field's raw value is valid JSON and that an
// object rebuilt from the fields is the same JSON value as the input.
func FuzzFields(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":[true,null,"x"]}}`))
	f.Add([]byte(`{ "sig" : "Eq\u002b==" }`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fields, err := Fields(data)
		if err != nil {
			return
		}
		var o Object
		seen := map[string]bool{}
		for _, fd := range fields {
			if !json.Valid(fd.Value) {
				t.Fatalf("field %q value %q is not valid JSON", fd.Key, fd.Value)
			}
			if seen[fd.Key] {
				return // duplicate keys: last-wins semantics differ by decoder
			}
			seen[fd.Key] = true
			o.Raw(fd.Key, fd.Value)
		}
		if !Equal(o.Bytes(), bytes.TrimSpace(data)) {
			t.Fatalf("rebuilt %s != %s", o.Bytes(), data)
		}
	})
}

// FuzzArray checks that the elements rebuild the same array.
func FuzzArray(f *testing.F) {
	f.Add([]byte(`[1,"a",{"b":[2]},null, true ,[]]`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := Array(data)
		if err != nil {
			return
		}
		for _, it := range items {
			if !json.Valid(it) {
				t.Fatalf("element %q is not valid JSON", it)
			}
		}
		if !Equal(ArrayOf(items), bytes.TrimSpace(data)) {
			t.Fatalf("rebuilt %s != %s", ArrayOf(items), data)
		}
	})
}

// FuzzString checks the plain-string fast path agrees with encoding/json.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\"b"`, `"\u00e9"`, `"é"`, `"a`, `""`, `"` + "\xff" + `"`, `"a"b"`, `12`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`, `"a\u00"`, `"\x"`, `"a\"`, `"a\nb" `, `"\/\b\f\r\t"`,
		"\"a\\n\xe2\x82\"", "\"\\n\xed\xa0\x80\"", "\"\\n\t\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, ok := String(raw)
		var want string
		err := json.Unmarshal(raw, &want)
		wantOK := err == nil && len(raw) > 0 && raw[0] == '"'
		if ok != wantOK || got != want && ok {
			t.Fatalf("String(%q) = %q, %t; encoding/json: %q, %v", raw, got, ok, want, err)
		}
	})
}

// BenchmarkString decodes 1.4 KB of markdown as answers hold it: its line
// breaks and quotes escaped every few words.
func BenchmarkString(b *testing.B) {
	text := strings.Repeat(`## Basic Steps\n\n1. **Find a safe crossing point**\n   - Use crosswalks, intersections, or \"pedestrian signals\" when available\n`, 11)
	raw := json.RawMessage(`"` + text + `"`)
	b.SetBytes(int64(len(raw)))
	for range b.N {
		if _, ok := String(raw); !ok {
			b.Fatal("not a string")
		}
	}
}

// BenchmarkStringProse decodes 1.3 KB of prose in paragraphs of a hundred
// bytes and more, its escapes only the line breaks between them.
func BenchmarkStringProse(b *testing.B) {
	text := strings.Repeat(`Crossing the street safely takes attention: look left, right, then left again before you step off the curb.\n\n`, 12)
	raw := json.RawMessage(`"` + text + `"`)
	b.SetBytes(int64(len(raw)))
	for range b.N {
		if _, ok := String(raw); !ok {
			b.Fatal("not a string")
		}
	}
}

// FuzzAppendCompact checks the allocation-free compactor agrees with
// encoding/json's Compact on valid JSON.
func FuzzAppendCompact(f *testing.F) {
	f.Add([]byte(`{ "a" : [1, "x y\"z" ], "b":{ } }`))
	f.Add([]byte(" \"s\\\\\" \" "))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, raw); err != nil {
			return
		}
		if got := AppendCompact([]byte("p:"), raw); string(got) != "p:"+want.String() {
			t.Fatalf("AppendCompact(%q) = %q, want %q", raw, got[2:], want.String())
		}
	})
}

// FuzzShallowObjectKnowing: reading an object whose array value starts
// with an array read before, through one of its items, gives the fields
// that reading it afresh gives, the error included; and so does any other
// document read knowing that array.
func FuzzShallowObjectKnowing(f *testing.F) {
	f.Add([]byte(`{"model":"m","messages":[{"role":"user","content":"a]"},{"role":"assistant","content":[{"type":"text","text":"b}"}]}],"x":1}`), uint8(1), []byte(`{"messages":[{"role":"user","content":"a]"}, 3]}`))
	f.Add([]byte(`{"a":[1,2,[3]],"b":[1,2,[3]]}`), uint8(2), []byte(`{"a":[1,2,[3`))
	f.Fuzz(func(t *testing.T, doc []byte, pick uint8, other []byte) {
		fields, err := ShallowObject(doc)
		if err != nil {
			return
		}
		// An array value, through one of its items, each valid JSON.
		var known []byte
		for _, fl := range fields {
			var ends []int
			eachOf(fl.Value, 0, 0, func(_ int, item json.RawMessage, end int) error {
				if !Valid(item) {
					return errMalformed
				}
				ends = append(ends, end)
				return nil
			})
			if len(ends) > 0 {
				known = fl.Value[:ends[int(pick)%len(ends)]]
				break
			}
		}
		if known == nil {
			return
		}
		for _, d := range [][]byte{doc, other} {
			want, werr := ShallowObject(d)
			got, err := ShallowObjectKnowing(d, known)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("%s knowing %s: error %v, afresh %v", d, known, err, werr)
			}
			if !cmp.Equal(got, want) {
				t.Fatalf("%s knowing %s:\n%q\nafresh:\n%q", d, known, got, want)
			}
		}
	})
}
