package thread_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
)

// TestPrintsGiveWhatHashingGives: over every block of every corpus
// recording, decoded as check decodes it (a memo sharing repeated
// messages), a hasher sharing the traffic's Prints gives what a plain one
// gives, for each wire's alphabet and with payloads or without, asked in
// turn over the same blocks.
func TestPrintsGiveWhatHashingGives(t *testing.T) {
	shared := 0
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		tr := &check.Traffic{Exchanges: providers.DecodeCassette(c, "")}
		seen := map[*engine.Block]bool{}
		for _, w := range []engine.Wire{engine.WireAnthropic, engine.WireGemini} {
			for _, payloads := range []bool{true, false} {
				remembering, plain := thread.HasherFor(tr, w), thread.NewHasher(w)
				if !payloads {
					remembering, plain = remembering.WithoutPayloads(), plain.WithoutPayloads()
				}
				for i := range tr.Exchanges {
					for _, b := range blocksOf(&tr.Exchanges[i]) {
						if got, want := remembering.Block(b), plain.Block(b); got != want {
							t.Fatalf("%s #%d (%s, payloads %v): block %s fingerprinted %x, %x by a plain hasher", corpus.Name(t, path), i, w, payloads, b.Type, got, want)
						}
						if seen[b] {
							shared++
						}
						seen[b] = true
					}
				}
			}
		}
	}
	if shared == 0 {
		t.Fatal("no block was asked for twice: the test proves nothing")
	}
}

func blocksOf(ex *engine.Exchange) []*engine.Block {
	var out []*engine.Block
	if ex.Request != nil {
		for i := range ex.Request.System {
			out = append(out, &ex.Request.System[i])
		}
		for m := range ex.Request.Messages {
			for i := range ex.Request.Messages[m].Blocks {
				out = append(out, &ex.Request.Messages[m].Blocks[i])
			}
		}
	}
	if ex.Response != nil {
		for m := range ex.Response.Output {
			for i := range ex.Response.Output[m].Blocks {
				out = append(out, &ex.Response.Output[m].Blocks[i])
			}
		}
	}
	return out
}

// TestPrintsOverKeepTheirOwn: what a judgement learns (Over) stays with it,
// so a request that changes after it was judged is hashed afresh; the
// Prints under it learns only what is put there itself.
func TestPrintsOverKeepTheirOwn(t *testing.T) {
	w := engine.WireAnthropic
	history := thread.NewPrints()
	kept := &engine.Block{Type: engine.BlockText, Text: "in the history"}
	thread.NewHasherWith(w, history).Block(kept)

	judged := &engine.Block{Type: engine.BlockText, Text: "judged"}
	judgement := thread.NewHasherWith(w, history.Over(true))
	if got, want := judgement.Block(kept), thread.NewHasher(w).Block(kept); got != want {
		t.Fatalf("a history block looked up through a judgement: %x, want %x", got, want)
	}
	judgement.Block(judged)
	thread.NewHasherWith(w, history.Over(false)).Block(judged) // a lookup that keeps nothing
	judged.Text = "changed after its judgement"
	if got, want := thread.NewHasherWith(w, history).Block(judged), thread.NewHasher(w).Block(judged); got != want {
		t.Errorf("a judgement's fingerprint outlived it: %x, want %x", got, want)
	}
}
