package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"gotest.tools/v3/golden"
)

func sampleReport() *Report {
	r := &Report{}
	r.Add(FileReport{
		Path: "x.yaml", Provider: "anthropic", Interactions: 4,
		Statuses: []int{200, 200, 200, 400},
		Checked:  []string{"ANT-THINK-001", "ANT-TOOL-001"},
		Findings: []check.Finding{
			{Check: "ANT-TOOL-001", Severity: check.SeverityError, Interaction: 2, Location: "request.messages[3].content[0]",
				Message: "tool_use toolu_01A has no tool_result in the next message"},
			{Check: "ANT-THINK-001", Severity: check.SeverityWarning, Interaction: 3, Location: "request.messages[1].content[0].signature",
				Message: "signature differs from the one recorded in interaction 0", Diff: diff.Bytes([]byte("EqQBCkYIBx"), []byte("EqQBCkZIBx"))},
		},
	})
	r.Add(FileReport{Path: "broken.yaml", Error: "broken.yaml:3: expected a mapping with `interactions`, found a sequence"})
	return r
}

func TestReportJSONSchema(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport().WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, buf.String(), "report.json.golden")
	// The contract of DESIGN.md: these keys, these types.
	var v struct {
		Version int `json:"version"`
		Files   []struct {
			Path         string `json:"path"`
			Provider     string `json:"provider"`
			Dialect      string `json:"dialect"`
			Interactions int    `json:"interactions"`
			Error        string `json:"error"`
			Statuses     []int  `json:"statuses"`
			Findings     []struct {
				Check, Severity, Location, Message, Diff string
				Interaction                              int
			} `json:"findings"`
		} `json:"files"`
		Summary struct{ Files, Interactions, Errors, Warnings int } `json:"summary"`
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Summary.Errors != 1 || v.Summary.Warnings != 1 || v.Summary.Files != 2 || v.Summary.Interactions != 4 {
		t.Errorf("summary = %+v", v.Summary)
	}
	if v.Files[1].Statuses == nil || v.Files[1].Findings == nil {
		t.Error("empty lists must be [] not null")
	}
}

func TestReportText(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport().WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, buf.String(), "report.txt.golden")
}

func TestReportJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport().WriteJUnit(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, buf.String(), "report.junit.golden")
	var suites junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &suites); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if suites.Tests != 3 || suites.Failures != 1 || suites.Errors != 1 {
		t.Errorf("tests=%d failures=%d errors=%d, want 3 1 1", suites.Tests, suites.Failures, suites.Errors)
	}
}
