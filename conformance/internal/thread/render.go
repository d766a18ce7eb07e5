package thread

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/traffic"
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
		upto = int(d.Req.Units[last].Msg) + 1
	}
	return diff.Struct(renderHistory(d.base.Wire, d.base.Msgs), renderHistory(d.Req.Wire, d.Req.Msgs[:upto]))
}

func renderHistory(w traffic.Wire, msgs []traffic.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = renderMessage(w, &msgs[i])
	}
	return out
}

func renderMessage(w traffic.Wire, m *traffic.Message) string {
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
		b.WriteString(" " + show.Block(w, &m.Blocks[i]))
	}
	return b.String()
}
