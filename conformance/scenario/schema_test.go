package scenario_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/fixtures"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(scenario.Schema))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("scenario.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("scenario.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// Every bundled scenario file is valid against the documented schema.
func TestBundledScenariosMatchSchema(t *testing.T) {
	schema := compileSchema(t)
	names := scenario.Names()
	if len(names) == 0 {
		t.Fatal("no bundled scenario")
	}
	for _, name := range names {
		data, err := fixtures.Scenarios.ReadFile("scenarios/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The schema refuses what the parser refuses: it can fail.
func TestSchemaRefusesBadScenarios(t *testing.T) {
	schema := compileSchema(t)
	for name, doc := range map[string]string{
		"unknown field":         `{"model":"m","prompt":"p","steps":[{"content":[{}]}],"colour":"red"}`,
		"prompt and turns":      `{"model":"m","prompt":"p","steps":[{"content":[{}]}],"turns":[{"prompt":"p","steps":[{"content":[{}]}]}]}`,
		"no steps":              `{"model":"m","prompt":"p"}`,
		"empty content":         `{"model":"m","prompt":"p","steps":[{"content":[]}]}`,
		"feedback alone":        `{"model":"m","turns":[{"prompt":"p","feedback":"f","steps":[{"content":[{}]}]}]}`,
		"unknown provider":      `{"model":"m","turns":[{"provider":"cohere","prompt":"p","steps":[{"content":[{}]}]}]}`,
		"negative abort_after":  `{"model":"m","prompt":"p","steps":[{"content":[{}],"abort_after":-1}]}`,
		"tool without its name": `{"model":"m","tools":[{"result":"r"}],"prompt":"p","steps":[{"content":[{}]}]}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if schema.Validate(inst) == nil {
			t.Errorf("%s: the schema accepts %s", name, doc)
		}
	}
}
