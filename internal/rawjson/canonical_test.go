package rawjson

import (
	"encoding/json"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"b": 1, "a": [1, 2.50, {"x": null}], "c": "<é>"}`, `{"b":1,"a":[1,2.50,{"x":null}],"c":"<é>"}`},
		{`{"c":"\u003c\u00e9\u003e","t":true,"f":false}`, `{"c":"<é>","t":true,"f":false}`},
		{`{"o":{"p":{}},"q":[[],[{}]],"r":1e2}`, `{"o":{"p":{}},"q":[[],[{}]],"r":1e2}`},
		{`"s"`, `"s"`},
		{`{"a":`, `{"a":`},
		{`{"a":1}x`, `{"a":1}x`},
	} {
		if got := string(Canonical([]byte(c.in))); got != c.want {
			t.Errorf("Canonical(%s) = %s, want %s", c.in, got, c.want)
		}
	}
	// Key order and number text stay significant.
	if string(Canonical([]byte(`{"a":1,"b":2}`))) == string(Canonical([]byte(`{"b":2,"a":1}`))) {
		t.Error("key order lost")
	}
	if string(Canonical([]byte(`{"a":1}`))) == string(Canonical([]byte(`{"a":1.0}`))) {
		t.Error("number text lost")
	}
}

func FuzzCanonical(f *testing.F) {
	f.Add([]byte(`{"b": 1, "a": [1, 2.50, {"x": null}], "c": "<é>"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Canonical(data)
		if json.Valid(data) && !Equal(c, data) {
			t.Fatalf("Canonical(%q) = %q, not the same value", data, c)
		}
		if string(Canonical(c)) != string(c) {
			t.Fatalf("Canonical not idempotent on %q", data)
		}
	})
}
