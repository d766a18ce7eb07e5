package scenario_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/fixtures"
)

func TestBundledScenarios(t *testing.T) {
	want := []string{"anthropic/parallel-tools", "anthropic/redacted-thinking", "anthropic/thinking-tool-loop"}
	if got := scenario.Names(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range all {
		if sc.Description == "" || len(sc.Steps) < 2 || len(sc.Definitions()) == 0 {
			t.Errorf("%s: want a description, a tool loop and tools", sc.Name)
		}
	}
	if _, err := scenario.Load("anthropic/nope"); err == nil || !strings.Contains(err.Error(), "anthropic/parallel-tools") {
		t.Errorf("Load of an unknown name: %v", err)
	}
}

func TestParseErrorsSayWhere(t *testing.T) {
	const ok = `{"model":"m","prompt":"p","tools":[{"name":"t","result":"r"}],"steps":[{"content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{}}]}]}`
	if _, err := scenario.Parse("anthropic/x", []byte(ok)); err != nil {
		t.Fatalf("a minimal scenario: %v", err)
	}
	for _, c := range []struct{ name, data, want string }{
		{"anthropic/x", "{\n\"model\": \"m\",\n\"prompt\": }", "anthropic/x.json: line 3: invalid character '}'"},
		{"anthropic/x", `{"model":"m","prompt":"p","step":[]}`, `anthropic/x.json: json: unknown field "step"`},
		{"anthropic/x", "{\"model\":\"m\",\n\"max_tokens\":\"big\"}", "anthropic/x.json: line 2: max_tokens: want int, got string"},
		{"anthropic/x", `{"model":"m","prompt":"p"}`, "anthropic/x.json: steps: a scenario needs at least one step"},
		{"anthropic/x", `{"prompt":"p"}`, "model and prompt are required"},
		{"gemini/x", ok, `gemini/x.json: no simulator for provider "gemini" yet`},
		{"x", ok, "a scenario is named <provider>/<what>"},
		{"anthropic/x", strings.Replace(ok, `"name":"t","input"`, `"name":"u","input"`, 1), `steps[0].content[0].name: tool "u" is not among the scenario's tools`},
		{"anthropic/x", strings.Replace(ok, `{"type":"tool_use"`, `{"type":"thinking","thinking":"x","signature":"abc"},{"type":"tool_use"`, 1), `steps[0].content[0].signature: want "{{mint}}"`},
		{"anthropic/x", strings.Replace(ok, `{"type":"tool_use"`, `{"type":"redacted_thinking"},{"type":"tool_use"`, 1), `steps[0].content[0].data: want "{{mint}}"`},
		{"anthropic/x", strings.Replace(ok, `"input":{}`, `"input":[1]`, 1), `steps[0].content:`},
		{"anthropic/x", `{"model":"m","prompt":"p","thinking":"on","steps":[]}`, "thinking: want an object with a type"},
		{"anthropic/x", ok + ` {}`, "line 1: unexpected data after the scenario object"},
	} {
		_, err := scenario.Parse(c.name, []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s, %s) = %v, want an error containing %q", c.name, c.data, err, c.want)
		}
	}
}

// FuzzParse: any input gives a scenario or an error, never a panic, and a
// scenario it accepts renders and serves.
func FuzzParse(f *testing.F) {
	for _, n := range scenario.Names() {
		data, err := fixtures.Scenarios.ReadFile("scenarios/" + n + ".json")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(n, data)
	}
	f.Add("anthropic/x", []byte(`{"model":"m","prompt":"p","steps":[{"content":[{"type":"text","text":"é"}]}]}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		sc, err := scenario.Parse(name, data)
		if err != nil {
			return
		}
		if sc.Name != name || len(sc.Steps) == 0 {
			t.Fatalf("accepted %q with %d steps", sc.Name, len(sc.Steps))
		}
		sc.Messages()
		sc.Definitions()
	})
}
