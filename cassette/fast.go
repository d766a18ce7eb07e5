package cassette

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/cassetteyaml"
)

// parseFast reads the exact layout appendInteraction writes, an order of
// magnitude faster and leaner than building a yaml.v3 node tree, which
// matters for 50 MB streamed cassettes. It reports ok=false at the first
// byte it did not expect, and the caller falls back to yaml.v3, so on any
// input both paths give the same result (tests hold them to it).
func parseFast(data []byte) (ins []*Interaction, ephemeral []string, ok bool) {
	r := fastReader{data: data}
	if !r.literal(versionLine) {
		return nil, nil, false
	}
	if r.literal(ephemeralKey + ":\n") {
		for r.literal("- ") {
			e, ok := r.inlineLine()
			if !ok {
				return nil, nil, false
			}
			ephemeral = append(ephemeral, e)
		}
		if len(ephemeral) == 0 {
			return nil, nil, false // a null, which yaml.v3 reads the same, but not our layout
		}
	}
	if !r.literal(interactionsKey) {
		return nil, nil, false
	}
	for r.pos < len(r.data) {
		in, ok := r.interaction()
		if !ok {
			return nil, nil, false
		}
		ins = append(ins, in)
	}
	return ins, ephemeral, true
}

type fastReader struct {
	data []byte
	pos  int
}

// literal consumes s if the input continues with it.
func (r *fastReader) literal(s string) bool {
	if !bytes.HasPrefix(r.data[r.pos:], []byte(s)) {
		return false
	}
	r.pos += len(s)
	return true
}

// line returns the rest of the current line without its '\n' and moves past
// it. ok is false at the end of input or when the line has no '\n'.
func (r *fastReader) line() (string, bool) {
	i := bytes.IndexByte(r.data[r.pos:], '\n')
	if i < 0 {
		return "", false
	}
	s := string(r.data[r.pos : r.pos+i])
	r.pos += i + 1
	return s, true
}

// inlineBody reads a body written inline. A single-quoted one with no quote
// to unescape, the form most JSON bodies take, is the file's own bytes, not
// a copy: a cassette is then held in memory once, not three times (the
// file, a line, the body).
func (r *fastReader) inlineBody() ([]byte, bool) {
	i := bytes.IndexByte(r.data[r.pos:], '\n')
	if i < 0 {
		return nil, false
	}
	raw := r.data[r.pos : r.pos+i]
	if len(raw) >= 2 && raw[0] == '\'' && raw[len(raw)-1] == '\'' {
		inner := raw[1 : len(raw)-1]
		if len(inner) > 0 && bytes.IndexByte(inner, '\'') < 0 && cassetteyaml.Printable(inner, false) {
			r.pos += i + 1
			return inner[:len(inner):len(inner)], true
		}
	}
	s, ok := r.inlineLine()
	return bodyBytes(s), ok
}

func (r *fastReader) interaction() (*Interaction, bool) {
	in := &Interaction{}
	req, resp := &in.Request, &in.Response
	var ok bool
	if !r.literal("- request:\n    body: ") {
		return nil, false
	}
	if req.Body, ok = r.body(); !ok || !r.literal("    headers:") {
		return nil, false
	}
	if req.Header, ok = r.headers(); !ok || !r.literal("    url: ") {
		return nil, false
	}
	if req.URL, ok = r.inlineLine(); !ok || !r.literal("    method: ") {
		return nil, false
	}
	if req.Method, ok = r.inlineLine(); !ok || !r.literal("  response:\n    body: ") {
		return nil, false
	}
	if resp.Body, ok = r.body(); !ok || !r.literal("    headers:") {
		return nil, false
	}
	if resp.Header, ok = r.headers(); !ok || !r.literal("    status: ") {
		return nil, false
	}
	if resp.StatusText, ok = r.inlineLine(); !ok || !r.literal("    code: ") {
		return nil, false
	}
	code, ok := r.line()
	if !ok {
		return nil, false
	}
	if resp.Status, ok = atoi(code); !ok || !r.literal("    duration: ") {
		return nil, false
	}
	dur, ok := r.line()
	if !ok {
		return nil, false
	}
	if resp.Duration, ok = fastDuration(dur); !ok {
		return nil, false
	}
	if r.literal("    " + offsetsKey + ": [") {
		list, ok := r.line()
		if !ok || !strings.HasSuffix(list, "]") {
			return nil, false
		}
		if resp.EventOffsets, ok = fastOffsets(list[:len(list)-1]); !ok {
			return nil, false
		}
	}
	return in, true
}

func atoi(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil
}

// fastDuration accepts what time.Duration.String writes, which YAML reads
// as a string.
func fastDuration(s string) (time.Duration, bool) {
	if s == "" || s != strings.TrimSpace(s) {
		return 0, false
	}
	v, err := time.ParseDuration(s)
	return v, err == nil
}

func fastOffsets(s string) ([]time.Duration, bool) {
	out := []time.Duration{}
	if s == "" {
		return out, true
	}
	for _, item := range strings.Split(s, ", ") {
		v, ok := fastDuration(item)
		if !ok || strings.ContainsAny(item, ",[]{}#") {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// inlineLine reads a one-line scalar that fills the rest of the line.
func (r *fastReader) inlineLine() (string, bool) {
	s, ok := r.line()
	if !ok {
		return "", false
	}
	return inlineScalar(s)
}

// inlineScalar decodes one scalar in the forms appendInline writes.
func inlineScalar(s string) (string, bool) {
	switch {
	case strings.HasPrefix(s, "!!binary "):
		b, err := base64.StdEncoding.DecodeString(s[len("!!binary "):])
		return string(b), err == nil
	case strings.HasPrefix(s, "'"):
		return singleQuoted(s)
	case strings.HasPrefix(s, `"`):
		return doubleQuoted(s)
	}
	return s, cassetteyaml.PlainSafe(s)
}

func singleQuoted(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != '\'' {
		return "", false
	}
	inner := s[1 : len(s)-1]
	if !cassetteyaml.Printable(inner, false) {
		return "", false
	}
	if strings.IndexByte(inner, '\'') < 0 {
		return inner, true // nothing to unescape: no copy
	}
	var b strings.Builder
	b.Grow(len(inner))
	for {
		q := strings.IndexByte(inner, '\'')
		if q < 0 {
			b.WriteString(inner)
			return b.String(), true
		}
		if q+1 >= len(inner) || inner[q+1] != '\'' {
			return "", false
		}
		b.WriteString(inner[:q+1]) // the text and one quote of the pair
		inner = inner[q+2:]
	}
}

func doubleQuoted(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return "", false
	}
	inner := s[1 : len(s)-1]
	var b strings.Builder
	b.Grow(len(inner))
	for i := 0; i < len(inner); {
		c := inner[i]
		switch {
		case c == '"':
			return "", false
		case c == '\\':
			if i+1 >= len(inner) {
				return "", false
			}
			n := 2
			switch inner[i+1] {
			case '"', '\\':
				b.WriteByte(inner[i+1])
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'x', 'u':
				n = 4
				if inner[i+1] == 'u' {
					n = 6
				}
				if i+n > len(inner) {
					return "", false
				}
				v, err := strconv.ParseUint(inner[i+2:i+n], 16, 32)
				if err != nil || v >= 0xd800 && v <= 0xdfff {
					return "", false
				}
				b.WriteRune(rune(v))
			default:
				return "", false
			}
			i += n
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
		default:
			rn, size := utf8.DecodeRuneInString(inner[i:])
			if c < 0x80 || rn == utf8.RuneError && size == 1 || !cassetteyaml.PrintableRune(rn) {
				return "", false
			}
			b.WriteString(inner[i : i+size])
			i += size
		}
	}
	return b.String(), true
}

// body reads a body value after "body: ": a literal block or an inline
// scalar.
func (r *fastReader) body() ([]byte, bool) {
	if r.pos >= len(r.data) || r.data[r.pos] != '|' {
		return r.inlineBody()
	}
	head, ok := r.line()
	if !ok {
		return nil, false
	}
	var explicit bool
	var chomp byte
	switch head {
	case "|", "|-", "|+":
	case "|2", "|2-", "|2+":
		explicit = true
	default:
		return nil, false
	}
	if last := head[len(head)-1]; last == '-' || last == '+' {
		chomp = last
	}
	// Every block is followed by the headers key, and no line of a block can
	// look like it, since block lines are empty or indented by six.
	end := bytes.Index(r.data[r.pos:], []byte("\n    headers:"))
	if end < 0 {
		return nil, false
	}
	block := r.data[r.pos : r.pos+end+1]
	r.pos += end + 1
	if !cassetteyaml.Printable(block, true) {
		return nil, false
	}
	const indent = "      "
	out := make([]byte, 0, len(block))
	for first := true; len(block) > 0; first = false {
		nl := bytes.IndexByte(block, '\n')
		line := block[:nl]
		block = block[nl+1:]
		switch {
		case len(line) == 0:
			if first && !explicit {
				return nil, false
			}
		case bytes.HasPrefix(line, []byte(indent)):
			text := line[len(indent):]
			if first && !explicit && (len(text) == 0 || text[0] == ' ' || text[0] == '\t') {
				return nil, false
			}
			out = append(out, text...)
		default:
			return nil, false
		}
		out = append(out, '\n')
	}
	text := bytes.TrimRight(out, "\n")
	switch chomp {
	case '-':
		out = text
	case 0:
		out = out[:len(text)+1]
	}
	if len(bytes.TrimLeft(out, " \t\n")) == 0 {
		return nil, false // YAML's rules for all-blank blocks are not ours
	}
	return out, true
}

// headers reads " {}\n" or a block of sorted entries after "headers:".
func (r *fastReader) headers() (http.Header, bool) {
	if r.literal(" {}\n") {
		return http.Header{}, true
	}
	if !r.literal("\n") {
		return nil, false
	}
	h := http.Header{}
	for {
		if !r.literal("      ") {
			return h, true
		}
		line, ok := r.line()
		if !ok {
			return nil, false
		}
		var keyText string
		if explicit, found := strings.CutPrefix(line, "? "); found {
			// A long key: "? key" then ":" on the next line.
			if len(explicit) <= maxSimpleKey || !r.literal("      ") {
				return nil, false
			}
			if line, ok = r.line(); !ok || line != ":" && line != ": []" {
				return nil, false
			}
			keyText = explicit
		} else if len(line) > maxSimpleKey+len(": []") {
			return nil, false
		}
		empty := strings.HasSuffix(line, ": []")
		switch {
		case empty:
			keyText += line[:len(line)-len(": []")]
		case strings.HasSuffix(line, ":"):
			keyText += line[:len(line)-1]
		default:
			return nil, false
		}
		key, ok := inlineScalar(keyText)
		if !ok || strings.HasPrefix(keyText, "- ") || strings.HasPrefix(keyText, "? ") {
			return nil, false
		}
		ck := http.CanonicalHeaderKey(key)
		if _, ok := h[ck]; !ok {
			h[ck] = []string{}
		}
		if empty {
			continue
		}
		for r.literal("      - ") {
			v, ok := r.inlineLine()
			if !ok {
				return nil, false
			}
			h[ck] = append(h[ck], v)
		}
	}
}
