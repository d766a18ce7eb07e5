package proxy

import (
	"bytes"
	"io"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/llmtck/llmtck/internal/cassette"
)

// pieces reads data n bytes at a time, so runes are cut between reads.
type pieces struct {
	data []byte
	n    int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(p.data) == 0 {
		return 0, io.EOF
	}
	k := copy(b[:min(len(b), p.n)], p.data)
	p.data = p.data[k:]
	return k, nil
}

// FuzzWriteDoubleQuoted holds the spilled body's streamed scalar to the one
// the cassette encoder writes for a body in memory, and to what YAML reads
// back, whatever the read sizes.
func FuzzWriteDoubleQuoted(f *testing.F) {
	for _, s := range []string{"", "plain text", "event: x\ndata: {\"a\":\"b\\\\n\"}\n\n", "tab\there\r\n", "é ü 日本 \u2028 \ufeff \x7f \x01", "0123456789abcdef" + "ü"} {
		f.Add([]byte(s), uint16(3))
	}
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		if !utf8.Valid(data) {
			return
		}
		var got bytes.Buffer
		if err := writeDoubleQuoted(&got, &pieces{data: data, n: int(step%97) + 1}); err != nil {
			t.Fatal(err)
		}
		want, _ := cassette.AppendEscaped([]byte{'"'}, data, false)
		want = append(want, '"')
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("streamed %q\nwhole    %q", got.Bytes(), want)
		}
		var back string
		if err := yaml.Unmarshal(append([]byte("v: "), got.Bytes()...), &struct{ V *string }{&back}); err != nil {
			t.Fatalf("YAML does not read %q: %v", got.Bytes(), err)
		}
		if back != string(data) {
			t.Fatalf("YAML reads %q back as %q", data, back)
		}
	})
}
