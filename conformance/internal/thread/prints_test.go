package thread_test

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
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
		seen := map[*traffic.Block]bool{}
		for _, w := range []traffic.Wire{traffic.WireAnthropic, traffic.WireGemini} {
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

func blocksOf(ex *traffic.Exchange) []*traffic.Block {
	var out []*traffic.Block
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
	w := traffic.WireAnthropic
	history := thread.NewPrints()
	kept := &traffic.Block{Type: traffic.BlockText, Text: "in the history"}
	thread.NewHasherWith(w, history).Block(kept)

	judged := &traffic.Block{Type: traffic.BlockText, Text: "judged"}
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

// TestPrintsCarryTakeOverWhatIsAsked: a Carry answers a block the Prints it
// carries from knows with that Prints' fingerprint, not a new hash (the
// block's text changed since, so a hash would differ), and keeps it past
// Settle; a block not asked for before Settle is hashed afresh.
func TestPrintsCarryTakeOverWhatIsAsked(t *testing.T) {
	w := traffic.WireAnthropic
	old := thread.NewPrints()
	kept := &traffic.Block{Type: traffic.BlockText, Text: "kept"}
	left := &traffic.Block{Type: traffic.BlockText, Text: "left behind"}
	was := thread.NewHasherWith(w, old).Block(kept)
	thread.NewHasherWith(w, old).Block(left)
	kept.Text, left.Text = "kept, changed", "left behind, changed"

	carry := old.Carry()
	if got := thread.NewHasherWith(w, carry).Block(kept); got != was {
		t.Fatalf("a carried block: %x, want the fingerprint carried over, %x", got, was)
	}
	carry.Settle()
	if got := thread.NewHasherWith(w, carry).Block(kept); got != was {
		t.Errorf("a carried block after Settle: %x, want %x", got, was)
	}
	if got, want := thread.NewHasherWith(w, carry).Block(left), thread.NewHasher(w).Block(left); got != want {
		t.Errorf("a block not asked for before Settle: %x, want a fresh hash %x", got, want)
	}
}

// TestPrintsSharedWhileAdded: the linter's Prints, read by judgements
// while calls are added to it (and its fingerprints moved, now and then,
// to the table read with no lock), answers every lookup as hashing does,
// and keeps every fingerprint it was given. Run with -race.
func TestPrintsSharedWhileAdded(t *testing.T) {
	w := traffic.WireAnthropic
	blocks := make([]traffic.Block, 5000)
	for i := range blocks {
		blocks[i] = traffic.Block{Type: traffic.BlockText, Text: "block " + strconv.Itoa(i)}
	}
	want := make([]uint64, len(blocks))
	for i := range blocks {
		want[i] = thread.NewHasher(w).Block(&blocks[i])
	}
	shared := thread.NewPrints()
	var added atomic.Int64
	var wg sync.WaitGroup
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; added.Load() < int64(len(blocks)); j++ {
				i := (j*7919 + r) % int(added.Load()+1)
				if got := thread.NewHasherWith(w, shared.Over(false)).Block(&blocks[i]); got != want[i] {
					t.Errorf("block %d read while adding: %x, want %x", i, got, want[i])
					return
				}
			}
		}()
	}
	for i := range blocks {
		thread.NewHasherWith(w, shared).Block(&blocks[i])
		added.Add(1)
	}
	wg.Wait()
	// Every fingerprint is kept: changing a block does not change what
	// the Prints answers for it.
	for i := range blocks {
		blocks[i].Text = "changed"
		if got := thread.NewHasherWith(w, shared.Over(false)).Block(&blocks[i]); got != want[i] {
			t.Fatalf("block %d after adding them all: %x, want the fingerprint kept, %x", i, got, want[i])
		}
	}
}
