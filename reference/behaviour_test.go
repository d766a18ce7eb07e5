package reference_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// play runs the scenario with the reference engine and returns its
// simulator.
func play(t *testing.T, name string, opts reference.Options) *simulator.Simulator {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.Play(sc, func(s *simulator.Session) error { return reference.Play(context.Background(), s, opts) })
	if err != nil {
		t.Fatal(err)
	}
	if !sim.Done() {
		t.Fatalf("%s: %d of %d steps served; rejections %v", name, sim.Served(), len(sc.Steps), sim.Rejections())
	}
	return sim
}

// lastRequest is the messages of the last request sent.
func lastRequest(sim *simulator.Simulator) *traffic.Request {
	exs := sim.Traffic().Exchanges
	return exs[len(exs)-1].Request
}

func hasBlock(req *traffic.Request, keep func(traffic.Block) bool) bool {
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			if keep(b) {
				return true
			}
		}
	}
	return false
}

func TestTurnsCarryTheRightHistory(t *testing.T) {
	cases := []struct {
		scenario string
		want     string
		ok       func(req *traffic.Request) bool
	}{{
		scenario: "responses/handoff-to-anthropic",
		want:     "the Anthropic request keeps the Responses answer text but not its encrypted reasoning",
		ok: func(req *traffic.Request) bool {
			return req.Wire == traffic.WireAnthropic &&
				!hasBlock(req, func(b traffic.Block) bool { return b.Type == traffic.BlockReasoning || len(b.EncryptedContent) > 0 }) &&
				hasBlock(req, func(b traffic.Block) bool { return strings.HasPrefix(b.Text, "Roll back to v3.1.4") })
		},
	}, {
		scenario: "anthropic/schema-retry",
		want:     "turn 2 carries only the prompt and the accepted JSON answer: no prose answer, no feedback",
		ok: func(req *traffic.Request) bool {
			return len(req.Messages) == 3 && strings.HasPrefix(req.Messages[1].Blocks[0].Text, `{"name"`) &&
				!hasBlock(req, func(b traffic.Block) bool { return strings.Contains(b.Text, "not valid JSON") })
		},
	}, {
		scenario: "anthropic/cancelled-tool",
		want:     "the cancelled call keeps an error result, before the next prompt",
		ok: func(req *traffic.Request) bool {
			return hasBlock(req, func(b traffic.Block) bool {
				return b.Type == traffic.BlockToolResult && b.ToolCallID == "toolu_01VbN3kRq7TzWm2sXe9LpHcA" && b.IsError
			})
		},
	}, {
		scenario: "anthropic/compaction",
		want:     "the last request is the system prompt, the summary and the new prompt",
		ok: func(req *traffic.Request) bool {
			return len(req.System) == 1 && len(req.Messages) == 2 && strings.HasPrefix(req.Messages[0].Blocks[0].Text, "Summary so far") &&
				!hasBlock(req, func(b traffic.Block) bool { return b.Type == traffic.BlockToolCall || b.Type == traffic.BlockThinking })
		},
	}, {
		scenario: "anthropic/aborted-stream",
		want:     "nothing but text survives the response stopped mid-stream: no thinking from it",
		ok: func(req *traffic.Request) bool {
			return !hasBlock(req, func(b traffic.Block) bool { return b.Type == traffic.BlockThinking })
		},
	}}
	for _, c := range cases {
		for _, stream := range []bool{true, false} {
			if !stream && c.scenario == "anthropic/aborted-stream" {
				continue // a whole JSON body cannot be stopped half way
			}
			t.Run(c.scenario, func(t *testing.T) {
				sim := play(t, c.scenario, reference.Options{Stream: stream})
				if req := lastRequest(sim); !c.ok(req) {
					t.Errorf("stream=%v: want %s; got %+v", stream, c.want, req.Messages)
				}
			})
		}
	}
}

// anthropic/aborted-stream stops the stream after events reached the
// client: the engine keeps the partial answer (AssistantTruncated), so the
// next turn carries it. Before the simulator waited for the events to be
// read, the stop came first and there was nothing to keep.
func TestAbortedStreamDeliversEventsFirst(t *testing.T) {
	sim := play(t, "anthropic/aborted-stream", reference.Options{Stream: true})
	if !hasBlock(lastRequest(sim), func(b traffic.Block) bool { return strings.Contains(b.Text, "Day 1: walk through Alfama") }) {
		t.Errorf("the next turn does not carry the partial answer: the stop came before any event reached the client")
	}
	if steps := sim.UnstreamedAborts(); len(steps) > 0 {
		t.Errorf("steps %v were not streamed", steps)
	}
	// Without streaming there is no mid-way: the simulator says so.
	sim = play(t, "anthropic/aborted-stream", reference.Options{Stream: false})
	if steps := sim.UnstreamedAborts(); len(steps) != 1 {
		t.Errorf("a run without streaming reports unstreamed aborts %v, want one step", steps)
	}
}
