package engine_test

import (
	"bytes"
	"testing"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
)

func TestValidateCorpus(t *testing.T) {
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, ex := range providers.DecodeCassette(c, "") {
			if ex.Request == nil {
				continue
			}
			err := engine.Validate(ex.Request.Messages)
			t.Logf("%s #%d %s status %d: %v", corpus.Name(t, path), ex.Index, ex.Wire, ex.Status, err)
		}
	}
}
