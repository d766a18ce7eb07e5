package origin

import (
	"encoding/json"
	"testing"
)

func TestValue(t *testing.T) {
	same := [][]string{
		{`"++//Pg=="`, `"--__Pg"`, `"++\/\/Pg=="`, `"\u002b+//Pg"`},             // one value: alphabets, padding, escapes
		{`"not base64!"`, `"not base64\u0021"`},                                 // unescaping only
		{`"gAAAAABpIOBE-GFc"`, `"gAAAAABpIOBE+GFc"`, `"gAAAAABpIOBE\u002dGFc"`}, // a URL-safe token re-encoded
	}
	for _, group := range same {
		for _, raw := range group[1:] {
			if Value(json.RawMessage(raw)) != Value(json.RawMessage(group[0])) {
				t.Errorf("%s and %s should stand for the same value", group[0], raw)
			}
		}
	}
	if Value(json.RawMessage(`"c2lnLWE="`)) == Value(json.RawMessage(`"c2lnLWI="`)) {
		t.Error("different signatures share a key")
	}
}
