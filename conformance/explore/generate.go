// Package explore generates scenarios from a seed: conversations of one to
// several turns over a wire, with thinking, tool calls, user stops,
// compaction, schema retries and provider faults, each valid for its wire
// by construction, and shrinks a failing one to the smallest that still
// fails the same check.
package explore

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/traffic"
)

// Options limit what Generate draws.
type Options struct {
	// Caps are the capabilities the harness declares (provider names and
	// scenario.Capabilities); nil means everything.
	Caps []string
	// Faults are the fault kinds to draw from; nil means every kind. A
	// harness without "retry" gets none.
	Faults []scenario.FaultKind
	// MaxTurns bounds the turns; 0 means 3.
	MaxTurns int
}

func (o Options) has(c string) bool { return o.Caps == nil || slices.Contains(o.Caps, c) }

// Wires are the wires Generate knows.
var Wires = []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock}

// models are the model each wire's scenarios name.
var models = map[traffic.Wire]string{
	traffic.WireAnthropic: "claude-sonnet-4-5",
	traffic.WireOpenAI:    "gpt-4.1",
	traffic.WireResponses: "gpt-5",
	traffic.WireGemini:    "gemini-3-pro-preview",
	traffic.WireBedrock:   "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
}

// switchModels are the models a later turn switches to, on the wires
// where a switch keeps what the history holds valid. Not Anthropic: there
// the catalogue warns when thinking another model signed is echoed
// (ANT-THINK-003) and refuses it dropped before kept history (HIST-003).
// Not a Responses model that does not reason either: after a tool loop,
// dropping the reasoning it must drop (OAI-RSN-005) is a HIST-003 warning.
var switchModels = map[traffic.Wire]string{
	traffic.WireOpenAI:    "gpt-4.1-mini",
	traffic.WireResponses: "gpt-5-mini",
}

// Name is the scenario name of seed on wire w.
func Name(w traffic.Wire, seed uint64) string { return fmt.Sprintf("%s/explore-%d", w, seed) }

// Generate builds the scenario of seed on wire w, as the file form (File)
// and parsed. The same seed, wire and options give the same bytes.
func Generate(w traffic.Wire, seed uint64, o Options) (*File, error) {
	if _, ok := models[w]; !ok {
		return nil, fmt.Errorf("explore: no generator for wire %q (have %v)", w, Wires)
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), w: w, o: o, seed: seed}
	return g.file(), nil
}

// Scenarios returns the n scenarios of wire w from seed on (seed, seed+1,
// …), parsed: what `llmtck test --explore N --seed S` plays.
func Scenarios(w traffic.Wire, seed uint64, n int, o Options) ([]*scenario.Scenario, error) {
	out := make([]*scenario.Scenario, 0, n)
	for i := range n {
		f, err := Generate(w, seed+uint64(i), o)
		if err != nil {
			return nil, err
		}
		sc, err := f.Scenario()
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

type gen struct {
	r    *rand.Rand
	w    traffic.Wire
	o    Options
	seed uint64
	ids  int // ids minted so far, so every id is unique
	args int // tool calls so far, so every call's arguments are unique
	what []string
	// thinkingOn is the scenario's thinking setting, which the Messages
	// API and Converse steps follow (a handoff turn included).
	thinkingOn bool
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// id is a provider-shaped unique id: prefix then 24 base62 characters.
func (g *gen) id(prefix string) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	g.ids++
	var b strings.Builder
	b.WriteString(prefix)
	for range 22 {
		b.WriteByte(alnum[g.r.IntN(len(alnum))])
	}
	fmt.Fprintf(&b, "%02d", g.ids%100)
	return b.String()
}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) thinking() bool {
	return g.w == traffic.WireAnthropic || g.w == traffic.WireBedrock || g.w == traffic.WireGemini
}

// handoff picks another wire the harness supports for a turn to move to.
// Only a conversation without thinking moves (from Chat Completions or
// Responses): a history another wire wrote has no signed thinking to open
// a Messages API tool loop with, which the API refuses under thinking.
func (g *gen) handoff() (traffic.Wire, bool) {
	if g.w != traffic.WireOpenAI && g.w != traffic.WireResponses {
		return "", false
	}
	var others []traffic.Wire
	for _, w := range []traffic.Wire{traffic.WireOpenAI, traffic.WireResponses, traffic.WireAnthropic, traffic.WireGemini} {
		if w != g.w && g.o.has(string(w)) {
			others = append(others, w)
		}
	}
	if len(others) == 0 {
		return "", false
	}
	return others[g.r.IntN(len(others))], true
}

// signedHistory reports a wire whose thinking signatures bind the history
// before them.
func (g *gen) signedHistory() bool {
	return g.w == traffic.WireAnthropic || g.w == traffic.WireBedrock
}

func (g *gen) file() *File {
	f := &File{Name: Name(g.w, g.seed), Model: models[g.w], MaxTokens: 4096, System: g.pick(systems)}
	if g.thinking() {
		g.thinkingOn = true
		f.Thinking = json.RawMessage(`{"type": "enabled", "budget_tokens": 2048}`)
		if g.w == traffic.WireGemini {
			f.Thinking = json.RawMessage(`{"type": "enabled"}`)
		}
	}
	f.Tools = tools
	maxTurns := g.o.MaxTurns
	if maxTurns == 0 {
		maxTurns = 3
	}
	n := 1 + g.r.IntN(maxTurns)
	usedCancel := false
	for i := range n {
		t := fileTurn{Prompt: fmt.Sprintf("%s (request %d)", g.pick(prompts), i+1)}
		var what []string
		home := g.w
		if alt, ok := switchModels[g.w]; ok && i > 0 && g.chance(0.15) {
			t.Model = alt
			what = append(what, "a switch to "+alt)
		} else if hw, ok := g.handoff(); ok && i > 0 && g.chance(0.12) {
			t.Provider, t.Model, g.w = string(hw), models[hw], hw
			what = append(what, "a handoff to "+string(hw))
		}
		if i > 0 && g.o.has("compaction") && g.chance(0.15) {
			t.Compact = fmt.Sprintf("Summary of the conversation so far (%d turns): the user asked for checks and got answers.", i)
			what = append(what, "compaction")
		}
		switch {
		case i == 0 && g.o.has("ephemeral") && !g.signedHistory() && g.chance(0.2):
			// Only in the first turn and without history-bound thinking:
			// later, or under Anthropic's signed thinking, the catalogue
			// reads the accepted answer as an edit of the retried history
			// (HIST-001, ANT-THINK-009; conformance/explore/testdata/found).
			t.OutputSchema = json.RawMessage(`{"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}`)
			t.Feedback = "Reply with only a JSON object with the key answer."
			t.Steps = []fileStep{g.step(0, false, "The answer is yes, as far as I can tell."), g.step(0, false, `{"answer":"yes"}`)}
			what = append(what, "schema retry with ephemeral feedback")
		default:
			calls := g.r.IntN(4) // steps with tool calls before the final one
			for range calls {
				t.Steps = append(t.Steps, g.step(1+g.r.IntN(3), false, ""))
			}
			last := g.step(0, false, "")
			switch {
			case !usedCancel && g.o.has("cancel") && g.chance(0.12):
				n := 1 + g.r.IntN(2)
				last = g.step(n, true, "")
				usedCancel = true
				if n > 1 {
					what = append(what, "the user cancels the second of two parallel calls while it runs")
				} else {
					what = append(what, "a tool the user cancels while it runs")
				}
			case g.o.has("cancel") && g.o.has("stream") && g.chance(0.1):
				last.AbortAfter = 3 + g.r.IntN(6)
				what = append(what, fmt.Sprintf("the user stops the stream after %d events", last.AbortAfter))
			}
			t.Steps = append(t.Steps, last)
			what = append(what, fmt.Sprintf("%d tool step(s)", calls))
		}
		if g.o.has("retry") {
			for j := range t.Steps {
				if g.chance(0.25) {
					t.Steps[j].Faults = g.faults()
					what = append(what, fmt.Sprintf("step %d fails %s", j+1, describeFaults(t.Steps[j].Faults)))
				}
			}
		}
		g.w = home
		f.Turns = append(f.Turns, t)
		g.what = append(g.what, fmt.Sprintf("turn %d: %s", i+1, strings.Join(what, ", ")))
	}
	if usedCancel {
		f.Tools = append(slices.Clone(tools), cancelTool)
	}
	f.Description = fmt.Sprintf("Generated from seed %d on %s: %d turn(s); %s.", g.seed, g.w, n, strings.Join(g.what, "; "))
	return f
}

func describeFaults(fs []scenario.ProviderFault) string {
	var s []string
	for _, f := range fs {
		d := string(f.Kind)
		if f.RetryAfterMS > 0 {
			d += fmt.Sprintf(" (retry-after-ms %d)", f.RetryAfterMS)
		}
		s = append(s, d)
	}
	return strings.Join(s, " then ")
}

func (g *gen) faults() []scenario.ProviderFault {
	kinds := g.o.Faults
	if kinds == nil {
		kinds = scenario.FaultKinds
	}
	if len(kinds) == 0 {
		return nil
	}
	out := make([]scenario.ProviderFault, 1+g.r.IntN(2))
	for i := range out {
		f := scenario.ProviderFault{Kind: kinds[g.r.IntN(len(kinds))]}
		switch f.Kind {
		case scenario.FaultRateLimit, scenario.FaultOverloaded:
			f.RetryAfterMS = 10 + g.r.IntN(21)
		case scenario.FaultStreamError, scenario.FaultDropped:
			f.After = g.r.IntN(14)
		}
		out[i] = f
	}
	return out
}
