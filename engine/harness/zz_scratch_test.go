package harness_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/engine"
)

func TestZZScratch(t *testing.T) {
	name := os.Getenv("SCRATCH")
	if name == "" { t.Skip() }
	c, err := cassette.Load(filepath.Join(corpus.Dir(t), name))
	if err != nil { t.Fatal(err) }
	for i, ex := range providers.DecodeCassette(c, "") {
		fmt.Printf("=== %d %s %d %s req err %q resp err %q\n", i, ex.URL, ex.Status, ex.Wire, ex.RequestErr, ex.ResponseErr)
		fmt.Printf("REQ body: %.3000s\n", c.Interactions[i].Request.Body)
		if ex.Request != nil {
			for j, m := range ex.Request.Messages { dump("req", j, m) }
		}
		if ex.Response != nil {
			fmt.Printf("resp stop=%s usage=%+v stream=%v\n", ex.Response.StopReason, ex.Response.Usage, ex.Response.Stream != nil)
			for j, m := range ex.Response.Output { dump("out", j, m) }
		}
	}
}

func dump(side string, j int, m engine.Message) {
	fmt.Printf("  %s[%d] role=%s wt=%s itemid=%s extra=%v\n", side, j, m.Role, m.WireType, responses.ItemID(m), keys(m.Extra))
	for k, b := range m.Blocks {
		fmt.Printf("     b%d %s wt=%s id=%q item=%q name=%s text=%.60q sig=%.40s thought=%v enc=%.30s input=%.80s res=%.80s extra=%v\n", k, b.Type, b.WireType, b.ID, b.ItemID, b.Name, b.Text, b.Signature, b.Thought, b.EncryptedContent, b.Input, b.ResultRaw, keys(b.Extra))
	}
}
func keys(m map[string]json.RawMessage) []string { var s []string; for k, v := range m { s = append(s, k+"="+string(v)[:min(len(v),40)]) }; return s }
