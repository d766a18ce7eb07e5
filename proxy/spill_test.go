package proxy

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/cassetteyaml"
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
		want, _ := cassetteyaml.AppendEscaped([]byte{'"'}, data, false)
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

// FuzzSpilledBodyEncodesAsInMemory holds a spilled body's interaction,
// wherever the spill file ends and the bytes still in memory begin, and
// whatever is written after the spill (which goes on as block lines
// straight from each write), to the one the cassette encoder writes with
// the body in memory: byte for byte when the body is a literal block (an
// event stream), and read back as the same body by the fast reader and by
// stock YAML in every form. after is how many bytes are written before the
// spill, cut how many of those spill.
func FuzzSpilledBodyEncodesAsInMemory(f *testing.F) {
	for _, s := range []string{"event: x\ndata: {\"a\":1}\n\n", " lead\n\n\n", "\n\nx", "one line", "é\n☃\n\n", "a\r\nb\n", "\xff\n", "\n\n\n", "tab\there\n"} {
		f.Add([]byte(s), uint16(2), uint8(3), uint16(len(s)))
		f.Add([]byte(s), uint16(2), uint8(3), uint16(2))
	}
	// All of it spilt, the last line break too.
	f.Add([]byte("000\n"), uint16(4), uint8(6), uint16(4))
	f.Add([]byte("a\n\n\n"), uint16(4), uint8(1), uint16(4))
	// Cut inside a rune; a fault on either side of the cut; a rune cut off
	// at the end of the body.
	f.Add([]byte("é☃\n\n"), uint16(1), uint8(1), uint16(7))
	f.Add([]byte("ab☃\n\n"), uint16(3), uint8(2), uint16(7))
	f.Add([]byte("a\x01\nb\n"), uint16(3), uint8(1), uint16(5))
	f.Add([]byte("a\nb\x01\n"), uint16(2), uint8(1), uint16(5))
	f.Add([]byte("data: x\n\xe2\x82"), uint16(3), uint8(3), uint16(10))
	// Written after the spill: a rune cut between writes, the bytes the
	// credential scan still judges, a fault in a later write.
	f.Add([]byte("é☃é☃\nxé\n\n"), uint16(1), uint8(1), uint16(1))
	f.Add([]byte("ab\n☃☃☃\n\n"), uint16(2), uint8(2), uint16(3))
	f.Add([]byte("data: sk-ant-abc def\n\n"), uint16(3), uint8(5), uint16(4))
	f.Add([]byte("data: x\n\ndata: \x01\n\n"), uint16(8), uint8(4), uint16(9))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16, step uint8, after uint16) {
		body := newBodyBuffer("response.body", 0)
		defer body.Close()
		n := int(step%16) + 1
		write := func(p []byte) {
			for i := 0; i < len(p); i += n {
				body.Write(p[i:min(len(p), i+n)])
			}
		}
		// A body holding a credential is not recorded: from the write
		// that completes it on, nothing of it is kept or spilt.
		leaked := func() bool { return body.scan.Leak() != nil }
		at := int(after) % (len(data) + 1)
		if write(data[:at]); leaked() {
			return
		}
		body.spill(int(cut) % (at + 1))
		if write(data[at:]); leaked() {
			return
		}
		doc := spilledDocument(t, body, data)
		var stock struct {
			Interactions []struct {
				Response struct{ Body string }
			}
		}
		if err := yaml.Unmarshal(doc, &stock); err != nil {
			t.Fatalf("YAML does not read it: %v\n%s", err, doc)
		}
		if back := stock.Interactions[0].Response.Body; back != string(data) {
			t.Fatalf("YAML reads %q back, spilled %q", back, data)
		}
	})
}

// TestLargeSpilledBodies puts bodies of several MB through the keeping path
// a stream takes (pieces of a read's size, spilled as block lines past
// spillAt) and reads each back from its cassette: an event stream byte for
// byte as the encoder writes it in memory, and a body that is no block
// (a CR, bytes that are not UTF-8), with lines longer than the spill
// reader's buffer, as the same bytes.
func TestLargeSpilledBodies(t *testing.T) {
	line := func(n int) string { return strings.Repeat("ab", n/2) }
	bodies := map[string][]byte{
		"event stream":        []byte(strings.Repeat("event: content_block_delta\ndata: {\"text\":\""+line(900)+"\"}\n\n", 6000)),
		"ends in line breaks": []byte(strings.Repeat("data: x\n", 700000) + strings.Repeat("\n", 5)),
		"long lines, a CR":    []byte(strings.Repeat(line(200000)+"\n\n"+line(10)+"\r\n", 30)),
		"not UTF-8":           []byte(strings.Repeat("data: \xff\xfe"+line(70000)+"\n", 80)),
		// Runes of every width, cut between writes.
		"runes": []byte(strings.Repeat("data: é☃𝄞"+strings.Repeat("☃", 301)+"\n\n", 9000)),
	}
	for name, data := range bodies {
		t.Run(name, func(t *testing.T) {
			body := newBodyBuffer("response.body", -1)
			defer body.Close()
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 32<<10)
				body.Write(rest[:n])
				rest = rest[n:]
			}
			if !body.Spilled() {
				t.Fatalf("a body of %d bytes did not spill", len(data))
			}
			spilledDocument(t, body, data)
		})
	}
}

// spilledDocument writes body's interaction as the sink does once body has
// spilt, holds it byte for byte to the one the cassette encoder writes in
// memory when body is a literal block, reads it back as data, and returns
// the cassette it makes.
func spilledDocument(t *testing.T, body *bodyBuffer, data []byte) []byte {
	t.Helper()
	in := &cassette.Interaction{
		Request:  cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Body: []byte(`{"stream":true}`)},
		Response: cassette.Response{Status: 200, StatusText: "200 OK"},
	}
	var got bytes.Buffer
	if err := encodeSpilled(&got, in, body); err != nil {
		t.Fatal(err)
	}
	inMemory := *in
	inMemory.Response.Body = data
	var want bytes.Buffer
	if err := cassette.EncodeInteraction(&want, &inMemory); err != nil {
		t.Fatal(err)
	}
	if block := bytes.Contains(want.Bytes(), []byte("\n  response:\n    body: |")); block != body.BlockSafe() {
		t.Fatalf("the encoder writes %q as a literal block: %v; the spilled body says %v", clip(data), block, body.BlockSafe())
	}
	if body.BlockSafe() {
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("spilled:\n%s\nin memory:\n%s", clip(got.Bytes()), clip(want.Bytes()))
		}
	}
	var doc bytes.Buffer
	cassette.EncodeHeader(&doc)
	doc.Write(got.Bytes())
	c, err := cassette.Parse("spilled.yaml", doc.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, clip(doc.Bytes()))
	}
	if back := c.Interactions[0].Response.Body; !bytes.Equal(back, data) && len(data) > 0 {
		t.Fatalf("read back %q, spilled %q", clip(back), clip(data))
	}
	return doc.Bytes()
}

// clip shortens what a failure prints of a body of several MB.
func clip(b []byte) []byte {
	if len(b) > 4<<10 {
		return append(b[:4<<10:4<<10], " …"...)
	}
	return b
}
