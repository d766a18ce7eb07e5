package xp

import (
	"encoding/json"
	"testing"
)

func TestXPValue(t *testing.T) {
	same := [][]string{
		{`"++//Pg=="`, `"--__Pg"`, `"++\/\/Pg=="`, `"\u002b+//Pg"`},             // one value: alphabets, padding, escapes
		{`"not base64!"`, `"not base64\u0021"`},                                 // unescaping only
		{`"gAAAAABpIOBE-GFc"`, `"gAAAAABpIOBE+GFc"`, `"gAAAAABpIOBE\u002dGFc"`}, // a URL-safe token re-encoded
	}
	for _, group := range same {
		for _, raw := range group[1:] {
			if xpValue(json.RawMessage(raw)) != xpValue(json.RawMessage(group[0])) {
				t.Errorf("%s and %s should stand for the same value", group[0], raw)
			}
		}
	}
	if xpValue(json.RawMessage(`"c2lnLWE="`)) == xpValue(json.RawMessage(`"c2lnLWI="`)) {
		t.Error("different signatures share a key")
	}
}
