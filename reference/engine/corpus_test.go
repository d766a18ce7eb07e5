package engine_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// corpusExchanges decodes every recording of the shared corpus.
func corpusExchanges(t *testing.T) map[string][]traffic.Exchange {
	t.Helper()
	out := map[string][]traffic.Exchange{}
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[corpus.Name(t, path)] = providers.DecodeCassette(c, "")
	}
	return out
}

// knownInvalid are accepted requests of the corpus that break a pairing
// rule anyway: the provider let it pass, the validator must not.
var knownInvalid = map[string]string{
	// cagent answers a Gemini functionCall "list_directory" with a
	// functionResponse named after its own call id ("call_1338bc52-…").
	"docker__cagent/e2e__testdata__cassettes__TestExec_Gemini_ToolCall.yaml#1": "tool call without id (list_directory) has no result",
}

// Every request the providers accepted validates, so the validator's rules
// hold on real traffic of all four wires.
func TestValidateCorpus(t *testing.T) {
	checked := 0
	for name, exs := range corpusExchanges(t) {
		for _, ex := range exs {
			if ex.Request == nil || !ex.Accepted() {
				continue
			}
			checked++
			key := fmt.Sprintf("%s#%d", name, ex.Index)
			err := engine.Validate(ex.Request.Messages)
			want, known := knownInvalid[key]
			switch {
			case known && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("%s: err = %v, want …%s…", key, err, want)
			case !known && err != nil:
				t.Errorf("%s (%s): %v", key, ex.Wire, err)
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d accepted requests decoded", checked)
	}
}

// Every reasoning block of real traffic becomes a thought tagged for its
// wire and comes back as a block with the same opaque bytes.
func TestThoughtsFromCorpus(t *testing.T) {
	tags := map[string]int{}
	for name, exs := range corpusExchanges(t) {
		for _, ex := range exs {
			var msgs []traffic.Message
			if ex.Request != nil {
				msgs = append(msgs, ex.Request.Messages...)
			}
			if ex.Response != nil {
				msgs = append(msgs, ex.Response.Output...)
			}
			for _, m := range msgs {
				for _, b := range m.Blocks {
					th, ok := engine.ThoughtFromBlock(b, engine.RawThought{ID: "t", CreatedAt: time.Now(), UpdatedAt: time.Now()})
					if !ok {
						continue
					}
					tags[th.ReplayCompatibility]++
					if !th.Opaque() {
						continue // reasoning without a payload: plain text
					}
					back, ok := engine.ThoughtBlock(th)
					payload := append(append(append([]byte(nil), b.Signature...), b.Data...), b.EncryptedContent...)
					got := append(append(append([]byte(nil), back.Signature...), back.Data...), back.EncryptedContent...)
					if !ok || !bytes.Equal(got, payload) || back.Type != b.Type {
						t.Errorf("%s#%d %s: payload changed on the way back", name, ex.Index, b.Path)
					}
				}
			}
		}
	}
	t.Logf("thoughts by tag: %v", tags)
	for _, tag := range []string{engine.ReplayAnthropicThinking, engine.ReplayAnthropicRedacted, engine.ReplayResponsesReasoning} {
		if tags[tag] == 0 {
			t.Errorf("no %s thought in the corpus", tag)
		}
	}
}
