package anthropic

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
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

// antSeed seeds every hash of one process; hashes are only compared with
// each other, never stored.
var antSeed = maphash.MakeSeed()

// antHasher hashes requests with length-prefixed fields, so that two
// different field sequences cannot run together into the same bytes. It is
// reused across messages to avoid allocation.
type antHasher struct {
	h, sub  maphash.Hash
	scratch []byte
}

func newAntHasher() *antHasher {
	a := &antHasher{}
	a.h.SetSeed(antSeed)
	a.sub.SetSeed(antSeed)
	return a
}

func (a *antHasher) int(n int) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(n))
	a.h.Write(b[:])
}

func (a *antHasher) str(s string) {
	a.int(len(s))
	a.h.WriteString(s)
}

// json hashes a raw JSON value with insignificant whitespace left out and
// a top-level cache_control key removed from an object.
func (a *antHasher) json(raw json.RawMessage) {
	raw = withoutCacheControl(raw)
	// A string token has no whitespace outside itself; anything else is
	// compacted only when it has whitespace at all.
	if len(raw) > 0 && raw[0] != '"' && bytes.ContainsAny(raw, " \t\n\r") {
		a.scratch = rawjson.AppendCompact(a.scratch[:0], raw)
		raw = a.scratch
	}
	a.int(len(raw))
	a.h.Write(raw)
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
func (a *antHasher) extra(m map[string]json.RawMessage) {
	var sum uint64
	n := 0
	for k, v := range m {
		if k == cacheControl {
			continue
		}
		a.sub.Reset()
		a.sub.WriteString(k)
		a.sub.WriteByte(0)
		a.sub.Write(rawjson.AppendCompact(a.scratch[:0], withoutCacheControl(v)))
		sum += a.sub.Sum64()
		n++
	}
	a.int(n)
	a.int(int(sum))
}

// antKey is a block's opaque token as map-key bytes: the token without its
// quotes when it has no escapes (no allocation), else its decoded value.
func antKey(raw json.RawMessage) []byte {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	if len(raw) == 0 {
		return nil
	}
	return []byte(antStr(raw))
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

// payload hashes an opaque token by its decoded value.
func (a *antHasher) payload(raw json.RawMessage) {
	if len(raw) == 0 {
		a.int(0)
		return
	}
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		raw = raw[1 : len(raw)-1]
		a.int(len(raw))
		a.h.Write(raw)
		return
	}
	a.str(antStr(raw))
}

// block hashes a block: a mask of the fields it has, then those fields,
// so the many empty fields of a block cost one bit each.
func (a *antHasher) block(b *engine.Block) {
	var mask int
	for i, present := range [...]bool{
		b.Text != "", len(b.Signature) > 0, len(b.Data) > 0, len(b.Source) > 0,
		b.ID != "", b.Name != "", len(b.Input) > 0, b.ToolCallID != "", b.IsError,
		len(b.Content) > 0, len(b.ResultRaw) > 0, len(b.Raw) > 0, antHasExtra(b.Extra),
	} {
		if present {
			mask |= 1 << i
		}
	}
	a.str(string(b.Type))
	a.int(mask)
	if b.Text != "" {
		a.str(b.Text)
	}
	if len(b.Signature) > 0 {
		a.payload(b.Signature)
	}
	if len(b.Data) > 0 {
		a.payload(b.Data)
	}
	if len(b.Source) > 0 {
		a.json(b.Source)
	}
	if b.ID != "" {
		a.str(b.ID)
	}
	if b.Name != "" {
		a.str(b.Name)
	}
	if len(b.Input) > 0 {
		a.json(b.Input)
	}
	if b.ToolCallID != "" {
		a.str(b.ToolCallID)
	}
	if len(b.Content) > 0 {
		a.int(len(b.Content))
		for i := range b.Content {
			a.block(&b.Content[i])
		}
	}
	if len(b.ResultRaw) > 0 {
		a.json(b.ResultRaw)
	}
	if len(b.Raw) > 0 {
		a.json(b.Raw)
	}
	if antHasExtra(b.Extra) {
		a.extra(b.Extra)
	}
}

// antHasExtra reports whether m has a key other than cache_control.
func antHasExtra(m map[string]json.RawMessage) bool {
	_, cc := m[cacheControl]
	return len(m) > 1 || len(m) == 1 && !cc
}

// message hashes one message. String content and a one-text-block array
// are the same to the API, so ContentString is not part of it.
func (a *antHasher) message(m *engine.Message) uint64 {
	a.h.Reset()
	a.str(string(m.Role))
	a.int(len(m.Blocks))
	for i := range m.Blocks {
		a.block(&m.Blocks[i])
	}
	a.extra(m.Extra)
	return a.h.Sum64()
}

func (a *antHasher) oneBlock(b *engine.Block) uint64 {
	a.h.Reset()
	a.block(b)
	return a.h.Sum64()
}

func (a *antHasher) system(blocks []engine.Block) uint64 {
	a.h.Reset()
	a.int(len(blocks))
	for i := range blocks {
		a.block(&blocks[i])
	}
	return a.h.Sum64()
}

func (a *antHasher) tools(tools []engine.Tool) uint64 {
	a.h.Reset()
	a.int(len(tools))
	for _, t := range tools {
		a.json(t.Raw)
	}
	return a.h.Sum64()
}

// ints hashes a sequence of numbers (message hashes into a prefix hash,
// the parts of a judging context).
func (a *antHasher) ints(ns ...uint64) uint64 {
	a.h.Reset()
	for _, n := range ns {
		a.int(int(n))
	}
	return a.h.Sum64()
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
