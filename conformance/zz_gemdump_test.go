package conformance

import (
	"encoding/json"
	"os"
	"testing"
)

func TestZZGemDump(t *testing.T) {
	p := os.Getenv("GEMDUMP")
	if p == "" {
		t.Skip()
	}
	tr, err := LoadTraffic(p, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range tr.Exchanges {
		b, _ := json.MarshalIndent(struct{ Req, Resp any }{ex.Request, ex.Response}, "", " ")
		t.Logf("=== %d %s %s\n%s", ex.Index, ex.Wire, ex.URL, b)
	}
}
