package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

// byteSource feeds a mutation generator from fuzz input; past the end it
// yields zeros, so every input is a complete program.
type byteSource struct {
	data []byte
	i    int
}

func (s *byteSource) next() int {
	if s.i >= len(s.data) {
		return 0
	}
	s.i++
	return int(s.data[s.i-1])
}

// generator builds mutations that are often valid and sometimes not: a
// result for a call that does not exist, a duplicate id, an unpaired
// replacement history.
type generator struct {
	src   *byteSource
	calls int
}

func (g *generator) id() string { g.calls++; return fmt.Sprintf("call_%d", g.calls) }

func (g *generator) callID(tr *Transcript) (string, string) {
	p := tr.Pending()
	if len(p) == 0 || g.src.next()%5 == 0 {
		return fmt.Sprintf("call_%d", g.src.next()%(g.calls+2)), "f"
	}
	c := p[g.src.next()%len(p)]
	return c.ID, c.Name
}

func (g *generator) mutation(tr *Transcript) Mutation {
	switch g.src.next() % 11 {
	case 0:
		return AssistantMessage{asst(text("answer"))}
	case 1:
		var bs []traffic.Block
		if g.src.next()%2 == 0 {
			bs = append(bs, thinkingB(`"c2lnbmF0dXJl"`))
		}
		for n := 1 + g.src.next()%3; n > 0; n-- {
			id := g.id()
			if g.src.next()%9 == 0 && g.calls > 1 {
				id = "call_1" // reuse: must be rejected
			}
			bs = append(bs, callB(id, fmt.Sprintf("tool%d", g.src.next()%3), `{"path":"src/a.go"}`))
		}
		return AssistantMessage{asst(bs...)}
	case 2:
		id, name := g.callID(tr)
		return ToolResult{ToolCallID: id, Name: name, Content: "result", IsError: g.src.next()%4 == 0}
	case 3:
		id, name := g.callID(tr)
		img := traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockImage, MediaType: "image/png", Source: json.RawMessage(`{"data":"iVBO"}`)}}}
		return MultimodalToolResult{ToolCallID: id, ToolName: name, Arguments: json.RawMessage(`{}`), UserMessages: []traffic.Message{img}}
	case 4:
		m := user("more")
		m.Ephemeral = g.src.next()%2 == 0
		return UserMessage{m}
	case 5:
		switch g.src.next() % 3 {
		case 0:
			return ContextReplace{[]traffic.Message{sys("s"), user("fork")}}
		case 1:
			return ContextReplace{[]traffic.Message{user("q"), asst(callB(g.id(), "f", `{}`))}}
		default: // unpaired: rejected
			return ContextReplace{[]traffic.Message{user("q"), asst(callB(g.id(), "f", `{}`)), user("x")}}
		}
	case 6:
		return ContextSummary{Summary: user("summary"), Remember: []string{"learned"}}
	case 7:
		return ExperienceRemember{Text: "fact"}
	case 8:
		return ExperienceForget{ExperienceID: fmt.Sprintf("exp-%d", g.src.next()%4)}
	case 9:
		return AssistantTruncated{PartialContent: "par", AbortReason: "ctx"}
	default:
		id, name := g.callID(tr)
		return ToolCancelled{ToolCallID: id, ToolName: name, AbortReason: "ctx"}
	}
}

// checkSequence applies the program in data and checks the invariants after
// every mutation: the history is valid with at most the last turn open; a
// rejected mutation changes nothing; after aborting, every call is answered.
func checkSequence(t *testing.T, data []byte) {
	tr := newTranscript(t, sys("system prompt"), user("task"))
	g := &generator{src: &byteSource{data: data}}
	for step := 0; g.src.i < len(g.src.data) && step < 500; step++ {
		m := g.mutation(tr)
		before := tr.Messages()
		err := tr.Apply(m)
		if err != nil {
			var me *MutationError
			if !errors.As(err, &me) {
				t.Fatalf("step %d %s: error %T %v is not a MutationError", step, m.Kind(), err, err)
			}
			if !reflect.DeepEqual(before, tr.Messages()) {
				t.Fatalf("step %d %s: rejected (%v) but the history changed", step, m.Kind(), err)
			}
		}
		if verr := ValidateOpen(tr.Messages()); verr != nil {
			t.Fatalf("step %d %s (err %v): %v", step, m.Kind(), err, verr)
		}
	}
	for _, m := range tr.CancelPending("end of test") {
		if err := tr.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := Validate(tr.Messages()); err != nil {
		t.Fatalf("after abort: %v", err)
	}
	c, err := tr.Compile(nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ValidateOpen(c.Messages); err != nil {
		t.Fatalf("compiled: %v", err)
	}
}

func TestRandomMutationSequences(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		data := make([]byte, 50+r.IntN(400))
		for j := range data {
			data[j] = byte(r.UintN(256))
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkSequence(t, data) })
	}
}

func FuzzMutationSequences(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 0, 2, 0, 2, 1})          // calls, then results
	f.Add([]byte{1, 1, 2, 1, 1, 3, 0, 0, 2, 0, 0, 0}) // multimodal among siblings
	f.Add([]byte{7, 7, 8, 1, 6, 2, 0})                // experiences, then compaction
	f.Add([]byte{1, 0, 2, 5, 1, 10, 0, 0, 9})         // replace with an open batch, cancel
	f.Add([]byte{4, 0, 4, 1, 1, 1, 2, 0, 4, 0})       // ephemeral while calls wait
	f.Fuzz(checkSequence)
}

// mutationProgram returns n valid mutations exercising every kind.
func mutationProgram(n int) []Mutation {
	img := traffic.Message{Role: traffic.RoleUser, Blocks: []traffic.Block{{Type: traffic.BlockImage, MediaType: "image/png"}}}
	ms := make([]Mutation, 0, n+16)
	for c := 0; len(ms) < n; c++ {
		a, b, d := fmt.Sprintf("a%d", c), fmt.Sprintf("b%d", c), fmt.Sprintf("d%d", c)
		ms = append(ms,
			UserMessage{user("next")},
			AssistantMessage{asst(thinkingB(`"sig"`), callB(a, "read", `{"path":"src/a.go"}`), callB(b, "shot", `{}`), callB(d, "run", `{}`))},
			ToolResult{ToolCallID: a, Content: "text"},
			MultimodalToolResult{ToolCallID: b, ToolName: "shot", Arguments: json.RawMessage(`{}`), UserMessages: []traffic.Message{img}},
			ExperienceRemember{ID: "e" + a, Text: "fact"},
			ExperienceForget{ExperienceID: "e" + a},
			ToolCancelled{ToolCallID: d, AbortReason: "stop"},
			AssistantMessage{asst(text("done"))},
			AssistantTruncated{PartialContent: "part"},
		)
		if c%500 == 499 {
			ms = append(ms, ContextSummary{Summary: user("summary")})
		}
	}
	return ms[:n]
}

// BenchmarkApply100k applies 100,000 mutations of every kind per op.
func BenchmarkApply100k(b *testing.B) {
	ms := mutationProgram(100_000)
	b.ReportAllocs()
	for b.Loop() {
		tr, _ := NewTranscript(sys("s"), user("q"))
		for _, m := range ms {
			if err := tr.Apply(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestMutationProgramIsValid(t *testing.T) {
	tr := newTranscript(t, sys("s"), user("q"))
	applyValid(t, tr, mutationProgram(400)...)
	applyValid(t, tr, tr.CancelPending("end")...)
	if err := Validate(tr.Messages()); err != nil {
		t.Fatal(err)
	}
}
