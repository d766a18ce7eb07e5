// Package show renders traffic for findings: a block in one line, a short
// quote of text, an opaque payload by its length and hash.
package show

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Block names a block in a few words.
func Block(w traffic.Wire, bl *traffic.Block) string {
	var parts []string
	kind := string(bl.Type)
	if bl.Type == traffic.BlockOther && bl.WireType != "" {
		kind = bl.WireType
	}
	switch bl.Type {
	case traffic.BlockThinking:
		if len(bl.Signature) > 0 && w != traffic.WireGemini {
			kind = "signed thinking"
		}
	case traffic.BlockToolCall:
		kind = "tool_call " + bl.Name
	case traffic.BlockToolResult:
		kind = "tool_result"
		if bl.IsError {
			kind += " (error)"
		}
	}
	parts = append(parts, kind)
	for _, id := range []string{bl.ItemID, bl.ID} {
		if id != "" {
			parts = append(parts, id)
		}
	}
	if bl.ToolCallID != "" {
		parts = append(parts, "for "+bl.ToolCallID)
	}
	if bl.Type == traffic.BlockText || bl.Type == traffic.BlockThinking && bl.Text != "" {
		parts = append(parts, Quote(bl.Text))
	}
	if len(bl.Signature) > 0 {
		parts = append(parts, Payload("signature", bl.Signature))
	}
	if len(bl.Data) > 0 {
		parts = append(parts, Payload("data", bl.Data))
	}
	if len(bl.EncryptedContent) > 0 {
		parts = append(parts, Payload("encrypted_content", bl.EncryptedContent))
	}
	return strings.Join(parts, " ")
}

// Quote quotes the start of s, marking a cut with "..." (ASCII, so a
// diff that elides the line never splits it).
func Quote(s string) string {
	const most = 32
	if utf8.RuneCountInString(s) <= most {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:most])) + "..."
}

// Payload shows an opaque token by length and a short stable hash.
func Payload(kind string, raw []byte) string {
	s, ok := rawjson.String(raw)
	if !ok {
		s = string(raw)
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("(%s %dB #%08x)", kind, len(s), h.Sum32())
}

// Clip cuts s to at most n runes, marking a cut with "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
