package anthropic

import (
	"bytes"
	"encoding/json"
	"sort"

	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// The preserved-thinking prefix rule (docs/provider-rules.md A12) compares the
// system prompt, the tools and every earlier message of the request that
// produced a thinking block with those of the request that echoes it,
// cache_control markers excluded. This file gives both sides one comparable
// form: a 64-bit hash for the linear-time comparison, and a plain view for the
// go-cmp diff that explains a mismatch. Both use decoded strings and compacted
// raw JSON, so a re-encoding that keeps every value (whitespace, escapes of
// opaque tokens) is not a difference.

// payloadBytes is a block's opaque token as map-key bytes: the token without its
// quotes when it has no escapes (no allocation), else its decoded value.
func payloadBytes(raw json.RawMessage) []byte {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	if len(raw) == 0 {
		return nil
	}
	return []byte(str(raw))
}

// str decodes a raw JSON string token; a token that is not a string is
// kept as its bytes, so it still compares unequal to every string.
func str(raw json.RawMessage) string {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	if s, ok := rawjson.String(raw); ok {
		return s
	}
	return string(raw)
}

// blockView is a block as the prefix diff shows it.
type blockView struct {
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
	Content   []blockView       `json:",omitempty"`
	Result    string            `json:",omitempty"`
	Raw       string            `json:",omitempty"`
	Extra     map[string]string `json:",omitempty"`
}

// messageView is a message as the prefix diff shows it.
type messageView struct {
	Role   string
	Blocks []blockView
	Extra  map[string]string
}

// toolView is a tool definition as the prefix diff shows it.
type toolView struct {
	Name       string
	Definition string
}

func compact(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	return string(rawjson.Compact(thread.WithoutCacheControl(raw)))
}

func extraView(m map[string]json.RawMessage) map[string]string {
	var out map[string]string
	for k, v := range m {
		if k == thread.CacheControl {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = compact(v)
	}
	return out
}

func viewBlock(b *traffic.Block) blockView {
	v := blockView{
		Type: string(b.Type), Text: b.Text,
		Signature: str(b.Signature), Data: str(b.Data), Source: compact(b.Source),
		ID: b.ID, Name: b.Name, Input: compact(b.Input),
		ToolUseID: b.ToolCallID, IsError: b.IsError,
		Result: compact(b.ResultRaw), Raw: compact(b.Raw), Extra: extraView(b.Extra),
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
		v.Content = append(v.Content, viewBlock(&b.Content[i]))
	}
	return v
}

func viewBlocks(bs []traffic.Block) []blockView {
	out := make([]blockView, 0, len(bs))
	for i := range bs {
		out = append(out, viewBlock(&bs[i]))
	}
	return out
}

func viewMessage(m *traffic.Message) messageView {
	return messageView{Role: string(m.Role), Blocks: viewBlocks(m.Blocks), Extra: extraView(m.Extra)}
}

func viewTools(tools []traffic.Tool) []toolView {
	out := make([]toolView, 0, len(tools))
	for _, t := range tools {
		out = append(out, toolView{Name: t.Name, Definition: compact(t.Raw)})
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
