package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/llmtck/llmtck/providers/gemini"
)

func TestSignatureBytes(t *testing.T) {
	// 0xfb 0xef 0xff 0x3e encodes with every alphabet-specific character.
	want := string([]byte{0xfb, 0xef, 0xff, 0x3e})
	for _, tok := range []string{`"++//Pg=="`, `"++//Pg"`, `"--__Pg=="`, `"--__Pg"`} {
		got, err := gemini.SignatureBytes(json.RawMessage(tok))
		if err != nil || string(got) != want {
			t.Errorf("%s: %x, %v", tok, got, err)
		}
	}
	for _, tc := range []struct{ tok, want string }{
		{`5`, "thoughtSignature: expected a string, found a number"},
		{`"a"`, "thoughtSignature: not base64: illegal base64 data at input byte 0"},
		{`"ab$d"`, "thoughtSignature: not base64: illegal base64 data at input byte 2"},
	} {
		if _, err := gemini.SignatureBytes(json.RawMessage(tc.tok)); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.tok, err, tc.want)
		}
	}
}

func TestStreamOrigin(t *testing.T) {
	ev, part, ok := gemini.StreamOrigin("events[12].candidates[0].content.parts[3]")
	if !ok || ev != 12 || part != 3 {
		t.Errorf("got %d %d %t", ev, part, ok)
	}
	for _, p := range []string{"candidates[0].content.parts[3]", "events[1].candidates[0].content.parts[3].functionResponse.parts[0]", ""} {
		if _, _, ok := gemini.StreamOrigin(p); ok {
			t.Errorf("%q is not a streamed part path", p)
		}
	}
}
