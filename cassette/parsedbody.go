package cassette

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// toJSON turns a pydantic-ai `parsed_body` node back into the compact JSON it
// stands for. Key order is the document's; strings stay strings (even '421');
// numbers keep their text when it is valid JSON; bool and null become JSON's.
// The original whitespace is unknowable, so Content-Length may not match.
func (d *yamlDoc) toJSON(n *yaml.Node, what string) ([]byte, error) {
	return d.appendJSON(nil, n, what, 0)
}

func (d *yamlDoc) appendJSON(dst []byte, n *yaml.Node, what string, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, d.errorf(n, "%s is nested more than %d levels deep", what, maxDepth)
	}
	n, err := d.node(n)
	if err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.MappingNode:
		dst = append(dst, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := d.node(n.Content[i])
			if err != nil {
				return nil, err
			}
			if k.Kind != yaml.ScalarNode {
				return nil, d.errorf(k, "%s: expected a string key, found %s", what, kindName(k))
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, k.Value)
			dst = append(dst, ':')
			if dst, err = d.appendJSON(dst, n.Content[i+1], what, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case yaml.SequenceNode:
		dst = append(dst, '[')
		for i, item := range n.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = d.appendJSON(dst, item, what, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case yaml.ScalarNode:
		return appendScalarJSON(dst, n), nil
	}
	return nil, d.errorf(n, "%s: expected a JSON value, found %s", what, kindName(n))
}

// appendScalarJSON encodes one YAML scalar as JSON. Unknown tags are
// strings.
func appendScalarJSON(dst []byte, n *yaml.Node) []byte {
	switch n.ShortTag() {
	case "!!null":
		return append(dst, "null"...)
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return strconv.AppendBool(dst, b)
		}
	case "!!int", "!!float":
		if isJSONNumber(n.Value) {
			return append(dst, n.Value...)
		}
		// YAML spellings JSON lacks: 0x1F, +5, 1_000, .5 …
		var i int64
		if n.ShortTag() == "!!int" && n.Decode(&i) == nil {
			return strconv.AppendInt(dst, i, 10)
		}
		var u uint64
		if n.ShortTag() == "!!int" && n.Decode(&u) == nil {
			return strconv.AppendUint(dst, u, 10)
		}
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return strconv.AppendFloat(dst, f, 'g', -1, 64)
		}
	}
	return appendJSONString(dst, n.Value)
}

// appendJSONString quotes s as encoding/json does with HTML escaping off
// (rawjson.Quote), without an encoder per string.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			dst = append(dst, c)
			i++
			continue
		}
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
			i++
			continue
		case '\n':
			dst = append(dst, '\\', 'n')
			i++
			continue
		case '\r':
			dst = append(dst, '\\', 'r')
			i++
			continue
		case '\t':
			dst = append(dst, '\\', 't')
			i++
			continue
		case '\b':
			dst = append(dst, '\\', 'b')
			i++
			continue
		case '\f':
			dst = append(dst, '\\', 'f')
			i++
			continue
		}
		if c < 0x20 {
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&15])
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

func isJSONNumber(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	var v json.Number
	return json.Unmarshal([]byte(s), &v) == nil
}
