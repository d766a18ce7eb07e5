package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/corpus"
)

func zzBlocks(bs []engine.Block) string {
	var p []string
	for _, b := range bs {
		s := string(b.Type)
		if b.WireType != "" && b.WireType != string(b.Type) {
			s += "/" + b.WireType
		}
		if b.ID != "" {
			s += "#" + b.ID
		}
		if b.ToolCallID != "" {
			s += "->" + b.ToolCallID
		}
		if b.ItemID != "" {
			s += "@" + b.ItemID
		}
		if len(b.Signature) > 0 || len(b.EncryptedContent) > 0 || len(b.Data) > 0 {
			s += "[sig]"
		}
		if b.Text != "" {
			t := b.Text
			if len(t) > 30 {
				t = t[:30]
			}
			s += fmt.Sprintf("%q", t)
		}
		p = append(p, s)
	}
	return strings.Join(p, " ")
}

func TestZZDump(t *testing.T) {
	var out strings.Builder
	for _, path := range corpus.Files(t) {
		tr, err := LoadTraffic(path, "")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "##### %s\n", corpus.Name(t, path))
		for _, ex := range tr.Exchanges {
			fmt.Fprintf(&out, "== [%d] %s %d %s\n", ex.Index, ex.Wire, ex.Status, ex.URL)
			if rq := ex.Request; rq != nil {
				fmt.Fprintf(&out, "  system: %s prev=%q store=%v\n", zzBlocks(rq.System), rq.PreviousResponseID, rq.Store)
				for _, m := range rq.Messages {
					fmt.Fprintf(&out, "  %s %s(%s): %s\n", m.Path, m.Role, m.WireType, zzBlocks(m.Blocks))
				}
			}
			if rs := ex.Response; rs != nil {
				fmt.Fprintf(&out, "  -> resp id=%s\n", rs.ID)
				for _, m := range rs.Output {
					fmt.Fprintf(&out, "  -> %s(%s): %s\n", m.Role, m.WireType, zzBlocks(m.Blocks))
				}
			}
		}
	}
	t.Log("\n" + out.String())
}
