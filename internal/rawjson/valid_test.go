package rawjson

import (
	"encoding/json"
	"strings"
	"testing"
)

var validSeeds = []string{
	`{}`, `[]`, ` {"a" : [1, -2.5e+3, true, false, null, "x\u00e9\n"]} `, `"plain"`, `0`, `-0`, `01`, `1.`, `.5`, `1e`, `1E-2`,
	`{"a":1,}`, `[1,]`, `{"a"}`, `{1:2}`, `"\x"`, `"\u12G4"`, "\"tab\there\"", `"unterminated`, `[[[]]]`, `[[[]]`, `tru`, `nulll`,
	`{"k":"` + strings.Repeat("long text without specials ", 9) + `\"quoted\\" "}`, "\"\xff\xfe bytes\"", `"ends in backslash\`, ``, ` `, `1 2`,
}

// FuzzValid holds Valid to json.Valid's answer on any input.
func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", data, got, want)
		}
	})
}

func TestValidDepth(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", `{"k":`} {
			close := "]"
			if open != "[" {
				close = "}"
			}
			doc := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(close, depth))
			if got, want := Valid(doc), json.Valid(doc); got != want {
				t.Errorf("depth %d of %s: Valid = %v, json.Valid = %v", depth, open, got, want)
			}
		}
	}
}

// BenchmarkValid compares Valid with json.Valid on a 2 KB answer.
func BenchmarkValid(b *testing.B) {
	doc := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + strings.Repeat("Here is some answer text, with commas. ", 50) + `"}],"usage":{"input_tokens":12,"output_tokens":345}}`)
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"rawjson", Valid}, {"encoding-json", json.Valid}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for range b.N {
				if !v.valid(doc) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
