package engine

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const weatherSchema = `{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1}},"required":["city"],"additionalProperties":false}`

func TestToolboxValidate(t *testing.T) {
	box, err := NewToolbox(
		ToolDefinition{Name: "get_weather", Description: "Weather for a city", Schema: json.RawMessage(weatherSchema)},
		ToolDefinition{Name: "anything"},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, input string
		args        string // the arguments returned, when valid
		loc, msg    string // the error, when not
	}{
		{tool: "get_weather", input: `{"city": "Paris", "days": 2}`, args: `{"city": "Paris", "days": 2}`},
		{tool: "get_weather", input: `"{\"city\":\"Par\\u00eds\"}"`, args: `{"city":"Par\u00eds"}`}, // OpenAI: a string holding the object's text
		{tool: "anything", input: ``, args: `{}`},
		{tool: "anything", input: `""`, args: `{}`},
		{tool: "get_weather", input: `{"city": 7}`, loc: "/city", msg: "want string"},
		{tool: "get_weather", input: `{}`, loc: "/", msg: "missing property 'city'"},
		{tool: "get_weather", input: `{"city":"x","days":0}`, loc: "/days", msg: "minimum"},
		{tool: "get_weather", input: `{"city":"x","unit":"C"}`, loc: "/", msg: "additional properties 'unit' not allowed"},
		{tool: "get_weather", input: `["Paris"]`, loc: "/", msg: "must be a JSON object, found array"},
		{tool: "get_weather", input: `"{\"city\": \"Pa`, loc: "/", msg: "not a valid JSON string"},
		{tool: "get_weather", input: `"{\"city\": \"Pa\""`, loc: "/", msg: "not valid JSON"},
	}
	for _, tt := range tests {
		args, err := box.Validate(tt.tool, json.RawMessage(tt.input))
		if tt.msg == "" {
			if err != nil || string(args) != tt.args {
				t.Errorf("%s: args %s err %v, want %s", tt.input, args, err, tt.args)
			}
			continue
		}
		var ie *ToolInputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: err = %v, want a ToolInputError", tt.input, err)
			continue
		}
		if !strings.Contains(ie.Error(), "arguments at "+tt.loc+": ") || !strings.Contains(ie.Message, tt.msg) {
			t.Errorf("%s: %v, want at %s: …%s…", tt.input, ie, tt.loc, tt.msg)
		}
	}
	if _, err := box.Validate("nope", json.RawMessage(`{}`)); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown tool: %v", err)
	}
	tools := box.Tools()
	if len(tools) != 2 || string(tools[0].Schema) != weatherSchema || string(tools[1].Schema) != `{"type":"object"}` {
		t.Errorf("tools %+v", tools)
	}
}

func TestNewToolboxErrors(t *testing.T) {
	tests := []struct {
		defs []ToolDefinition
		want string
	}{
		{[]ToolDefinition{{Name: "a", Schema: json.RawMessage(`{"type":`)}}, "tool a: schema is not JSON"},
		{[]ToolDefinition{{Name: "a", Schema: json.RawMessage(`{"type":"objekt"}`)}}, "tool a: schema"},
		{[]ToolDefinition{{Name: "a"}, {Name: "a"}}, "tools[1]: tool a defined twice"},
		{[]ToolDefinition{{}}, "tools[0]: empty name"},
	}
	for _, tt := range tests {
		if _, err := NewToolbox(tt.defs...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %s", err, tt.want)
		}
	}
}

// FuzzToolArguments: model-produced arguments never panic the validator, and
// accepted arguments are bytes the model wrote.
func FuzzToolArguments(f *testing.F) {
	box, err := NewToolbox(ToolDefinition{Name: "w", Schema: json.RawMessage(weatherSchema)})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"city":"Paris"}`, `"{\"city\":\"Paris\"}"`, `{}`, `"`, `{"city":"\ud800"}`, `{"city":"a","days":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		args, err := box.Validate("w", input)
		if err != nil {
			var ie *ToolInputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T", err)
			}
			return
		}
		if !json.Valid(args) {
			t.Fatalf("accepted invalid JSON %q", args)
		}
	})
}

func TestDefaultPermission(t *testing.T) {
	p, err := DefaultPermission("edit", json.RawMessage(`{"path":"src/a\/b.go","line":12,"dry":true,"opts":{"x":1},"note":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"path": "src/a/b.go", "line": "12", "dry": "true"}
	if p.Tool != "edit" || len(p.Params) != len(want) {
		t.Fatalf("%+v", p)
	}
	for k, v := range want {
		if p.Params[k] != v {
			t.Errorf("%s = %q, want %q", k, p.Params[k], v)
		}
	}
}
