package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/internal/corpus"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report.Schema))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report-v1.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("report-v1.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// The JSON reports of the whole real corpus, findings, dialects, notes and
// unreadable files included, are valid against the documented schema.
func TestJSONReportMatchesSchema(t *testing.T) {
	schema := compileSchema(t)
	rep, err := report.CheckPaths([]string{corpus.Root(t), "testdata"}, checks.All(), "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Errors == 0 || rep.Summary.Warnings == 0 || rep.Summary.Info == 0 {
		t.Fatalf("the corpus report exercises too little of the schema: %+v", rep.Summary)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("the report does not match its schema: %v", err)
	}
}

// The schema catches a report that breaks the contract, and accepts the
// smallest one that keeps it.
func TestSchemaRejectsBrokenReports(t *testing.T) {
	schema := compileSchema(t)
	empty, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":1,"files":[],"summary":{"files":0,"interactions":0,"errors":0,"warnings":0,"info":0,"unreadable":0}}`))
	if err := schema.Validate(empty); err != nil {
		t.Fatalf("an empty report is refused: %v", err)
	}
	for name, body := range map[string]string{
		"no summary":         `{"version":1,"files":[]}`,
		"version 2":          `{"version":2,"files":[],"summary":{"files":0,"interactions":0,"errors":0,"warnings":0,"info":0,"unreadable":0}}`,
		"unknown severity":   `{"version":1,"files":[{"path":"a","provider":"anthropic","interactions":1,"error":"","statuses":[200],"findings":[{"check":"ANT-TOOL-001","severity":"fatal","interaction":0,"location":"","message":"m"}]}],"summary":{"files":1,"interactions":1,"errors":0,"warnings":0,"info":0,"unreadable":0}}`,
		"malformed check ID": `{"version":1,"files":[{"path":"a","provider":"anthropic","interactions":1,"error":"","statuses":[200],"findings":[{"check":"tool-1","severity":"error","interaction":0,"location":"","message":"m"}]}],"summary":{"files":1,"interactions":1,"errors":1,"warnings":0,"info":0,"unreadable":0}}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(v); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.TrimSpace(err.Error()) == "" {
			t.Errorf("%s: an empty error", name)
		}
	}
}
