package conformance

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// Edits are shown as a go-cmp diff of the two histories, one line per
// message: role, then each block's kind with its ids, a short quote of text
// and the length and hash of opaque payloads — enough to see what moved or
// went missing without whole bodies.

// editDiff renders the base history against the request's, the request cut
// after its last message that still holds base content (what follows was
// appended and is not part of the edit).
func editDiff(d *histDiff) string {
	last := -1
	for _, j := range d.match {
		last = max(last, j)
	}
	for _, j := range d.inserted() {
		last = max(last, j)
	}
	upto := 0
	if last >= 0 {
		upto = int(d.req.units[last].msg) + 1
	}
	return StructDiff(renderHistory(d.base.wire, d.base.msgs), renderHistory(d.req.wire, d.req.msgs[:upto]))
}

func renderHistory(w engine.Wire, msgs []engine.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = renderMessage(w, &msgs[i])
	}
	return out
}

func renderMessage(w engine.Wire, m *engine.Message) string {
	var b strings.Builder
	b.WriteString(string(m.Role))
	if m.WireType != "" && m.WireType != "message" {
		b.WriteString("/" + m.WireType)
	}
	b.WriteString(":")
	for i := range m.Blocks {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" " + describeBlock(w, &m.Blocks[i]))
	}
	return b.String()
}

// describeBlock names a block in a few words.
func describeBlock(w engine.Wire, bl *engine.Block) string {
	var parts []string
	kind := string(bl.Type)
	if bl.Type == engine.BlockOther && bl.WireType != "" {
		kind = bl.WireType
	}
	switch bl.Type {
	case engine.BlockThinking:
		if len(bl.Signature) > 0 && w != engine.WireGemini {
			kind = "signed thinking"
		}
	case engine.BlockToolCall:
		kind = "tool_call " + bl.Name
	case engine.BlockToolResult:
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
	if bl.Type == engine.BlockText || bl.Type == engine.BlockThinking && bl.Text != "" {
		parts = append(parts, quoteShort(bl.Text))
	}
	if len(bl.Signature) > 0 {
		parts = append(parts, payload("signature", bl.Signature))
	}
	if len(bl.Data) > 0 {
		parts = append(parts, payload("data", bl.Data))
	}
	if len(bl.EncryptedContent) > 0 {
		parts = append(parts, payload("encrypted_content", bl.EncryptedContent))
	}
	return strings.Join(parts, " ")
}

// quoteShort quotes the start of s, marking a cut with "..." (ASCII, so a
// diff that elides the line never splits it).
func quoteShort(s string) string {
	const most = 32
	if utf8.RuneCountInString(s) <= most {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:most])) + "..."
}

// payload shows an opaque token by length and a short stable hash.
func payload(kind string, raw []byte) string {
	s, ok := rawjson.String(raw)
	if !ok {
		s = string(raw)
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("(%s %dB #%08x)", kind, len(s), h.Sum32())
}
