package scenario_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/fixtures"
	"github.com/llmtck/llmtck/traffic"
)

var knownWires = []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock}

func TestBundledScenarios(t *testing.T) {
	names := scenario.Names()
	for _, want := range []string{"anthropic/parallel-tools", "anthropic/redacted-thinking", "anthropic/thinking-tool-loop"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names() = %v lacks %s", names, want)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("Names() not sorted: %v", names)
	}
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(names) {
		t.Fatalf("All() gave %d scenarios for %d names", len(all), len(names))
	}
	for i, sc := range all {
		provider, what, _ := strings.Cut(sc.Name, "/")
		if sc.Name != names[i] || what == "" || string(sc.Wire) != provider || !slices.Contains(knownWires, sc.Wire) {
			t.Errorf("%s: want <provider>/<what> with a known provider, got wire %q", sc.Name, sc.Wire)
		}
		if sc.Description == "" || len(sc.Turns) == 0 {
			t.Errorf("%s: want a description and at least one turn", sc.Name)
		}
		// Steps are every turn's steps in order, each naming its turn.
		n := 0
		for ti, turn := range sc.Turns {
			if turn.Model == "" || turn.Prompt == "" || len(turn.Steps) == 0 {
				t.Errorf("%s: turn %d lacks a model, a prompt or steps", sc.Name, ti)
			}
			for _, st := range turn.Steps {
				if n >= len(sc.Steps) || sc.Steps[n].Turn != ti || sc.Steps[n].Wire != turn.Wire || sc.Steps[n].Model != turn.Model {
					t.Errorf("%s: step %d is not turn %d's", sc.Name, n, ti)
				} else if len(st.Content) != len(sc.Steps[n].Content) {
					t.Errorf("%s: step %d content differs from its turn's", sc.Name, n)
				}
				n++
			}
		}
		if n != len(sc.Steps) {
			t.Errorf("%s: %d steps, its turns have %d", sc.Name, len(sc.Steps), n)
		}
		if ws := sc.Wires(); len(ws) == 0 || ws[0] != sc.Wire {
			t.Errorf("%s: Wires() = %v, want the first turn's provider first", sc.Name, ws)
		}
	}
	if _, err := scenario.Load("anthropic/nope"); err == nil || !strings.Contains(err.Error(), "anthropic/parallel-tools") {
		t.Errorf("Load of an unknown name: %v", err)
	}
}

// A multi-turn scenario: turns on two providers, a schema retry, a
// compaction, a cancelled tool and an aborted stream, each reflected in
// Turns, Steps, Wires and Requires.
func TestParseTurns(t *testing.T) {
	const data = `{
  "description": "d", "model": "claude-sonnet-4-5", "system": "s",
  "tools": [{"name": "ls", "result": "a b"}, {"name": "build", "result": "ok", "cancel": true}],
  "turns": [
    {"prompt": "List the files as JSON.", "output_schema": {"type": "object"}, "feedback": "Reply with JSON only.",
     "steps": [{"content": [{"type": "tool_use", "id": "toolu_01Ab", "name": "ls", "input": {}}]},
               {"content": [{"type": "text", "text": "a and b"}]},
               {"content": [{"type": "text", "text": "{\"files\":[\"a\",\"b\"]}"}]}]},
    {"prompt": "Build it.", "compact": "The user listed the files a and b.",
     "steps": [{"content": [{"type": "text", "text": "Building now, this takes a while."}], "abort_after": 3}]},
    {"provider": "openai", "model": "gpt-4.1", "prompt": "Summarise.",
     "steps": [{"content": [{"role": "assistant", "content": "Two files, one build."}]}]}
  ]
}`
	sc, err := scenario.Parse("anthropic/multi", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Turns) != 3 || len(sc.Steps) != 5 {
		t.Fatalf("%d turns, %d steps", len(sc.Turns), len(sc.Steps))
	}
	t0, t1, t2 := sc.Turns[0], sc.Turns[1], sc.Turns[2]
	if t0.Model != "claude-sonnet-4-5" || t0.Feedback != "Reply with JSON only." || string(t0.OutputSchema) != `{"type": "object"}` {
		t.Errorf("turn 0: %+v", t0)
	}
	if t1.Compact != "The user listed the files a and b." || sc.Steps[3].AbortAfter != 3 || sc.Steps[3].Turn != 1 {
		t.Errorf("turn 1: %+v, step 3: %+v", t1, sc.Steps[3])
	}
	if t2.Wire != traffic.WireOpenAI || t2.Model != "gpt-4.1" || sc.Steps[4].Wire != traffic.WireOpenAI {
		t.Errorf("turn 2: %+v", t2)
	}
	if got := sc.Wires(); !slices.Equal(got, []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI}) {
		t.Errorf("Wires() = %v", got)
	}
	if got, want := sc.Requires(), []string{"anthropic", "openai", "cancel", "stream", "ephemeral", "compaction"}; !slices.Equal(got, want) {
		t.Errorf("Requires() = %v, want %v", got, want)
	}
	if tool, ok := sc.Tool("build"); !ok || !tool.Cancel {
		t.Errorf("Tool(build) = %+v, %v", tool, ok)
	}
}

func TestParseErrorsSayWhere(t *testing.T) {
	const ok = `{"model":"m","prompt":"p","tools":[{"name":"t","result":"r"}],"steps":[{"content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{}}]}]}`
	if _, err := scenario.Parse("anthropic/x", []byte(ok)); err != nil {
		t.Fatalf("a minimal scenario: %v", err)
	}
	step := `{"content":[{"type":"text","text":"hi"}]}`
	turns := func(ts ...string) string {
		return `{"model":"m","turns":[` + strings.Join(ts, ",") + `]}`
	}
	for _, c := range []struct{ name, data, want string }{
		{"anthropic/x", "{\n\"model\": \"m\",\n\"prompt\": }", "anthropic/x.json: line 3: invalid character '}'"},
		{"anthropic/x", `{"model":"m","prompt":"p","step":[]}`, `anthropic/x.json: line 1: unknown field "step"`},
		{"anthropic/x", "{\"model\":\"m\",\n\"max_tokens\":\"big\"}", "anthropic/x.json: line 2: max_tokens: want int, got string"},
		{"anthropic/x", `{"model":"m","prompt":"p"}`, "anthropic/x.json: steps: a scenario needs at least one step"},
		{"anthropic/x", `{"prompt":"p"}`, "model and prompt are required"},
		{"cohere/x", ok, `cohere/x.json: no simulator for provider "cohere" (have anthropic`},
		{"x", ok, "a scenario is named <provider>/<what>"},
		{"anthropic/x", strings.Replace(ok, `"name":"t","input"`, `"name":"u","input"`, 1), `steps[0].content[0].name: tool "u" is not among the scenario's tools`},
		{"anthropic/x", strings.Replace(ok, `{"type":"tool_use"`, `{"type":"thinking","thinking":"x","signature":"abc"},{"type":"tool_use"`, 1), `steps[0].content[0].signature: want "{{mint}}"`},
		{"anthropic/x", strings.Replace(ok, `{"type":"tool_use"`, `{"type":"redacted_thinking"},{"type":"tool_use"`, 1), `steps[0].content[0].data: want "{{mint}}"`},
		{"anthropic/x", strings.Replace(ok, `"input":{}`, `"input":[1]`, 1), `steps[0].content:`},
		{"anthropic/x", `{"model":"m","prompt":"p","thinking":"on","steps":[]}`, "thinking: want an object with a type"},
		{"anthropic/x", ok + ` {}`, "line 1: unexpected data after the scenario object"},
		{"anthropic/x", `{"model":"m","steps":[{"content":[]}]}`, "model and prompt are required"},
		{"anthropic/x", `{"model":"m","prompt":"p","steps":[{"content":[]}]}`, "anthropic/x.json: steps[0].content: a step serves at least one item"},
		{"anthropic/x", `{"model":"m","prompt":"p","steps":[{"content":[{"type":"text","text":"hi"}],"abort_after":-1}]}`, "anthropic/x.json: steps[0].abort_after: want a count of parts, got -1"},
		// The multi-turn layout.
		{"anthropic/x", `{"model":"m","prompt":"p","steps":[` + step + `],"turns":[{"prompt":"q","steps":[` + step + `]}]}`, "anthropic/x.json: give prompt and steps at the top level or turns, not both"},
		{"anthropic/x", `{"model":"m","steps":[` + step + `],"turns":[{"prompt":"q","steps":[` + step + `]}]}`, "give prompt and steps at the top level or turns, not both"},
		{"anthropic/x", turns(`{"prompt":"q","output_schema":{"type":"object"},"steps":[` + step + `]}`), "anthropic/x.json: turns[0].output_schema and feedback go together"},
		{"anthropic/x", turns(`{"prompt":"q","feedback":"JSON please","steps":[` + step + `]}`), "turns[0].output_schema and feedback go together"},
		{"anthropic/x", turns(`{"prompt":"q","compact":"summary","steps":[` + step + `]}`), "anthropic/x.json: turns[0].compact: the first turn has no history to compact"},
		{"anthropic/x", turns(`{"prompt":"q","steps":[`+step+`]}`, `{"provider":"cohere","model":"c","prompt":"r","steps":[`+step+`]}`), `anthropic/x.json: turns[1].provider: no simulator for "cohere" (have anthropic`},
		{"anthropic/x", turns(`{"prompt":"q","steps":[`+step+`]}`, `{"provider":"openai","prompt":"r","steps":[{"content":[{"role":"assistant","content":"hi"}]}]}`), "turns[1].model and prompt are required"},
		{"anthropic/x", turns(`{"prompt":"q","steps":[`+step+`]}`, `{"prompt":"r","steps":[]}`), "anthropic/x.json: turns[1].steps: a scenario needs at least one step"},
		{"anthropic/x", turns(`{"prompt":"q","steps":[{"content":[{"type":"text","text":"hi"}],"abort_after":-2}]}`), "anthropic/x.json: turns[0].steps[0].abort_after: want a count of parts, got -2"},
		{"anthropic/x", turns(`{"prompt":"q","steps":[` + step + `],"extra":1}`), `line 1: unknown field "extra"`},
	} {
		_, err := scenario.Parse(c.name, []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s, %s) = %v, want an error containing %q", c.name, c.data, err, c.want)
		}
	}
}

// FuzzParse: any input gives a scenario or an error, never a panic, and a
// scenario it accepts keeps its structure and renders every step, as JSON
// and as a stream.
func FuzzParse(f *testing.F) {
	for _, n := range scenario.Names() {
		data, err := fixtures.Scenarios.ReadFile("scenarios/" + n + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(n, data)
	}
	f.Add("anthropic/x", []byte(`{"model":"m","prompt":"p","steps":[{"content":[{"type":"text","text":"é"}]}]}`))
	f.Add("anthropic/x", []byte(`{"model":"m","turns":[{"prompt":"p","output_schema":{},"feedback":"f","steps":[{"content":[{"type":"text","text":"a"}],"abort_after":2}]},{"prompt":"q","compact":"c","steps":[{"content":[{"type":"text","text":"b"}]}]}]}`))
	m := scenario.NewMinter([]byte("fuzz"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		sc, err := scenario.Parse(name, data)
		if err != nil {
			return
		}
		if sc.Name != name || len(sc.Steps) == 0 || len(sc.Turns) == 0 || len(sc.Wires()) == 0 {
			t.Fatalf("accepted %q with %d turns, %d steps", sc.Name, len(sc.Turns), len(sc.Steps))
		}
		sc.Requires()
		for i, st := range sc.Steps {
			for _, stream := range []bool{false, true} {
				parts, _, err := sc.Respond(m, i, &traffic.Request{Wire: st.Wire, Model: st.Model}, stream)
				if err != nil || len(parts) == 0 {
					t.Fatalf("step %d (stream %v) does not render: %v", i, stream, err)
				}
			}
		}
	})
}
