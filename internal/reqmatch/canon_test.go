package reqmatch

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/internal/rawjson"
)

func TestCanonicalIgnoresKeyOrderWhitespaceAndVolatileFields(t *testing.T) {
	a := []byte(`{"model":"claude-x","max_tokens":10,"metadata":{"user_id":"session-1","tag":"a"},"messages":[{"role":"user","content":"hi"}]}`)
	b := []byte("{\n  \"messages\": [ {\"content\": \"hi\", \"role\": \"user\"} ],\n  \"metadata\": {\"tag\": \"a\", \"user_id\": \"session-2\"},\n  \"max_tokens\": 10, \"model\": \"claude-x\"\n}\n")
	ca, cb := canonical("anthropic", a), canonical("anthropic", b)
	if string(ca) != string(cb) {
		t.Fatalf("canonical forms differ:\n%s\n%s", ca, cb)
	}
	want := `{"max_tokens":10,"messages":[{"content":"hi","role":"user"}],"metadata":{"tag":"a"},"model":"claude-x"}`
	if string(ca) != want {
		t.Fatalf("canonical = %s\nwant        %s", ca, want)
	}
	// The same field elsewhere, or on another wire, is significant.
	if string(canonical("openai", a)) == string(canonical("openai", []byte(`{"metadata":{"user_id":"x"}}`))) {
		t.Fatal("unrelated bodies compare equal")
	}
	nested := []byte(`{"messages":[{"metadata":{"user_id":"keep"}}]}`)
	if string(canonical("anthropic", nested)) != string(nested) {
		t.Fatalf("a nested metadata.user_id was dropped: %s", canonical("anthropic", nested))
	}
	if got := canonical("openai", []byte(`{"user":"u1","model":"gpt"}`)); string(got) != `{"model":"gpt"}` {
		t.Fatalf("openai user kept: %s", got)
	}
}

func TestCanonicalKeepsNonJSONAsIs(t *testing.T) {
	for _, body := range []string{"not json", `{"a":1} trailing`, `{"a":}`, `[1,2`, "\"\x01\""} {
		if got := canonical("unknown", []byte(body)); string(got) != body {
			t.Errorf("canonical(%q) = %q", body, got)
		}
	}
	if canonical("unknown", []byte(" \n")) != nil {
		t.Error("blank body is not empty")
	}
}

// FuzzCanonical checks the hand-written reader against encoding/json: it
// accepts exactly valid JSON, and its output is the same value, valid, and
// a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":[true,false,null,-0.5e+3,"x\u00e9\n"],"c":{"z":{},"y":[]}}`,
		`{"metadata":{"user_id":"u","x":1},"model":"m"}`, `{"metadata":{"user_id":1},"metadata":{"a":{"user_id":2}}}`, `[{"metadata":{"user_id":1}}]`, `"\ud83d"`, `{"a":1,"a":2}`, `{"\u0061":1,"a":0}`,
		`01`, `1.`, `-`, `{"a" 1}`, `[1,]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := canonical("unknown", body)
		valid := json.Valid(body)
		if !valid {
			if len(got) != 0 && string(got) != string(body) {
				t.Fatalf("invalid JSON %q canonicalised to %q", body, got)
			}
			return
		}
		if !json.Valid(got) || !rawjson.Equal(body, got) {
			t.Fatalf("canonical(%q) = %q: not the same value", body, got)
		}
		if again := canonical("unknown", got); string(again) != string(got) {
			t.Fatalf("not a fixed point: %q then %q", got, again)
		}
		// With a wire's volatile fields: the same as dropping them by hand.
		v, _ := DecodeJSON(body)
		want, _ := json.Marshal(stripVolatile("anthropic", v))
		if ant := canonical("anthropic", body); !rawjson.Equal(want, ant) {
			t.Fatalf("canonical(anthropic, %q) = %q, want %q", body, ant, want)
		}
	})
}
