package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"
	"time"

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
		Elapsed:  1500 * time.Microsecond,
		Took:     map[string]time.Duration{"ANT-THINK-001": 300 * time.Microsecond, "ANT-TOOL-001": 250 * time.Microsecond},
		Findings: []check.Finding{
			{Check: "ANT-TOOL-001", Severity: check.SeverityError, Interaction: 2, Location: "request.messages[3].content[0]",
				Message: "tool_use toolu_01A has no tool_result in the next message"},
			{Check: "ANT-TOOL-001", Severity: check.SeverityError, Interaction: 2, Location: "request.messages[3].content[1]",
				Message: "tool_use toolu_01B has no tool_result in the next message"},
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
			Note         string `json:"note"`
			Interactions int    `json:"interactions"`
			Error        string `json:"error"`
			Statuses     []int  `json:"statuses"`
			Findings     []struct {
				Check, Severity, Location, Message, Diff string
				Interaction                              int
			} `json:"findings"`
		} `json:"files"`
		Summary struct{ Files, Interactions, Errors, Warnings, Info, Unreadable int } `json:"summary"`
	}
	dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Summary.Errors != 2 || v.Summary.Warnings != 1 || v.Summary.Files != 2 || v.Summary.Interactions != 4 || v.Summary.Unreadable != 1 {
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

func TestReportGitHub(t *testing.T) {
	var buf bytes.Buffer
	if err := sampleReport().WriteGitHub(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Assert(t, buf.String(), "report.github.golden")
}

// The SARIF log names a rule per check of the catalogue with its help, and
// a result per finding on the cassette at its interaction and JSON path.
func TestReportSARIF(t *testing.T) {
	catalogue := []*check.Check{
		{ID: "ANT-THINK-001", Title: "Echoed thinking unchanged", Severity: check.SeverityError, Law: "law one", Troubleshoot: "fix one", ProviderError: "Invalid `signature`"},
		{ID: "ANT-TOOL-001", Title: "Tool calls answered", Severity: check.SeverityError, Law: "law two"},
	}
	var buf bytes.Buffer
	if err := sampleReport().WriteSARIF(&buf, catalogue); err != nil {
		t.Fatal(err)
	}
	// The source root is the folder the test runs in: the golden file
	// names it %SRCROOT%, as a viewer would.
	wd, _ := os.Getwd()
	golden.Assert(t, strings.ReplaceAll(buf.String(), fileURI(wd)+"/", "file:///%SRCROOT%/"), "report.sarif.golden")
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string                `json:"id"`
						Help struct{ Text string } `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					} `json:"physicalLocation"`
					LogicalLocations []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || log.Schema == "" || run.Tool.Driver.Name != "llmtck" || len(run.Tool.Driver.Rules) != 2 {
		t.Fatalf("log header: %+v", log)
	}
	if h := run.Tool.Driver.Rules[0].Help.Text; h != "law one\n\nThe provider answers: Invalid `signature`\n\nfix one" {
		t.Errorf("rule help %q", h)
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	r := run.Results[0]
	if r.RuleID != "ANT-TOOL-001" || r.RuleIndex != 1 || r.Level != "error" ||
		r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "x.yaml" ||
		r.Locations[0].LogicalLocations[0].FullyQualifiedName != "interaction[2].request.messages[3].content[0]" {
		t.Errorf("first result: %+v", r)
	}
	if inv := run.Invocations[0]; inv.ExecutionSuccessful || len(inv.Notifications) != 1 {
		t.Errorf("the unreadable file is not a notification: %+v", inv)
	}
}
