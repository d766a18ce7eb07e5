package conformance

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// The preserved-thinking prefix rule (wire-rules A12) compares the system
// prompt, the tools and every earlier message of the request that produced
// a thinking block with those of the request that echoes it, cache_control
// markers excluded. This file gives both sides one comparable form: a 64-bit
// hash for the linear-time comparison, and a plain view for the go-cmp diff
// that explains a mismatch. Both use decoded strings and compacted raw JSON,
// so a re-encoding that keeps every value (whitespace, escapes of opaque
// tokens) is not a difference.

const cacheControl = "cache_control"

// antHash is FNV-1a (64 bit) with length-prefixed fields, so that two
// different field sequences cannot run together into the same bytes.
type antHash uint64

const (
	fnvOffset antHash = 14695981039346656037
	fnvPrime  antHash = 1099511628211
)

func newAntHash() antHash { return fnvOffset }

func (h *antHash) byte(c byte) {
	*h ^= antHash(c)
	*h *= fnvPrime
}

func (h *antHash) int(n int) {
	for i := 0; i < 8; i++ {
		h.byte(byte(n >> (8 * i)))
	}
}

func (h *antHash) str(s string) {
	h.int(len(s))
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
}

// json hashes a raw JSON value with insignificant whitespace left out and
// a top-level cache_control key removed from an object.
func (h *antHash) json(raw json.RawMessage) {
	raw = withoutCacheControl(raw)
	n := 0
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		}
		h.byte(c)
		n++
	}
	// The length follows the bytes: still one way to read the sequence back.
	h.int(n)
}

// withoutCacheControl returns raw without its top-level cache_control key
// when it is an object that has one; raw itself otherwise.
func withoutCacheControl(raw json.RawMessage) json.RawMessage {
	if !bytes.Contains(raw, []byte(`"`+cacheControl+`"`)) {
		return raw
	}
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return raw
	}
	var o rawjson.Object
	for _, f := range fields {
		if f.Key != cacheControl {
			o.Raw(f.Key, f.Value)
		}
	}
	return o.Bytes()
}

// extra hashes an Extra map without cache_control, independent of map order.
func (h *antHash) extra(m map[string]json.RawMessage) {
	var sum antHash
	n := 0
	for k, v := range m {
		if k == cacheControl {
			continue
		}
		e := newAntHash()
		e.str(k)
		e.json(v)
		sum += e
		n++
	}
	h.int(n)
	h.int(int(sum))
}

// antStr decodes a raw JSON string token; a token that is not a string is
// kept as its bytes, so it still compares unequal to every string.
func antStr(raw json.RawMessage) string {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	return string(raw)
}

func (h *antHash) block(b *engine.Block) {
	h.str(string(b.Type))
	h.str(b.Text)
	h.str(antStr(b.Signature))
	h.str(antStr(b.Data))
	h.json(b.Source)
	h.str(b.ID)
	h.str(b.Name)
	h.json(b.Input)
	h.str(b.ToolCallID)
	if b.IsError {
		h.byte(1)
	} else {
		h.byte(0)
	}
	h.int(len(b.Content))
	for i := range b.Content {
		h.block(&b.Content[i])
	}
	h.json(b.ResultRaw)
	h.json(b.Raw)
	h.extra(b.Extra)
}

// antMessageHash hashes one message. String content and a one-text-block
// array are the same to the API, so ContentString is not part of it.
func antMessageHash(m *engine.Message) uint64 {
	h := newAntHash()
	h.str(string(m.Role))
	h.int(len(m.Blocks))
	for i := range m.Blocks {
		h.block(&m.Blocks[i])
	}
	h.extra(m.Extra)
	return uint64(h)
}

func antBlockHash(b *engine.Block) uint64 {
	h := newAntHash()
	h.block(b)
	return uint64(h)
}

func antSystemHash(blocks []engine.Block) uint64 {
	h := newAntHash()
	h.int(len(blocks))
	for i := range blocks {
		h.block(&blocks[i])
	}
	return uint64(h)
}

func antToolsHash(tools []engine.Tool) uint64 {
	h := newAntHash()
	h.int(len(tools))
	for _, t := range tools {
		h.json(t.Raw)
	}
	return uint64(h)
}

// antBlockView is a block as the prefix diff shows it.
type antBlockView struct {
	Type      string
	Text      string            `json:",omitempty"`
	Signature string            `json:",omitempty"`
	Data      string            `json:",omitempty"`
	Source    string            `json:",omitempty"`
	ID        string            `json:",omitempty"`
	Name      string            `json:",omitempty"`
	Input     string            `json:",omitempty"`
	ToolUseID string            `json:",omitempty"`
	IsError   bool              `json:",omitempty"`
	Content   []antBlockView    `json:",omitempty"`
	Result    string            `json:",omitempty"`
	Raw       string            `json:",omitempty"`
	Extra     map[string]string `json:",omitempty"`
}

// antMessageView is a message as the prefix diff shows it.
type antMessageView struct {
	Role   string
	Blocks []antBlockView
	Extra  map[string]string
}

// antToolView is a tool definition as the prefix diff shows it.
type antToolView struct {
	Name       string
	Definition string
}

func antCompact(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	return string(rawjson.Compact(withoutCacheControl(raw)))
}

func antExtraView(m map[string]json.RawMessage) map[string]string {
	var out map[string]string
	for k, v := range m {
		if k == cacheControl {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = antCompact(v)
	}
	return out
}

func antViewBlock(b *engine.Block) antBlockView {
	v := antBlockView{
		Type: string(b.Type), Text: b.Text,
		Signature: antStr(b.Signature), Data: antStr(b.Data), Source: antCompact(b.Source),
		ID: b.ID, Name: b.Name, Input: antCompact(b.Input),
		ToolUseID: b.ToolCallID, IsError: b.IsError,
		Result: antCompact(b.ResultRaw), Raw: antCompact(b.Raw), Extra: antExtraView(b.Extra),
	}
	if b.WireType != "" {
		v.Type = b.WireType
	}
	if len(b.Signature) == 0 {
		v.Signature = ""
	}
	if len(b.Data) == 0 {
		v.Data = ""
	}
	for i := range b.Content {
		v.Content = append(v.Content, antViewBlock(&b.Content[i]))
	}
	return v
}

func antViewBlocks(bs []engine.Block) []antBlockView {
	out := make([]antBlockView, 0, len(bs))
	for i := range bs {
		out = append(out, antViewBlock(&bs[i]))
	}
	return out
}

func antViewMessage(m *engine.Message) antMessageView {
	return antMessageView{Role: string(m.Role), Blocks: antViewBlocks(m.Blocks), Extra: antExtraView(m.Extra)}
}

func antViewTools(tools []engine.Tool) []antToolView {
	out := make([]antToolView, 0, len(tools))
	for _, t := range tools {
		out = append(out, antToolView{Name: t.Name, Definition: antCompact(t.Raw)})
	}
	return out
}

// sortedKeys lists a string-keyed map's keys in order, for stable messages.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
