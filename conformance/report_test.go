package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"gotest.tools/v3/golden"
)

func sampleReport() *Report {
	r := &Report{}
	r.Add(FileReport{
		Path: "x.yaml", Provider: "anthropic", Interactions: 4,
		Statuses: []int{200, 200, 200, 400},
		Checked:  []string{"ANT-THINK-001", "ANT-TOOL-001"},
		Findings: []Finding{
			{Check: "ANT-TOOL-001", Severity: SeverityError, Interaction: 2, Location: "request.messages[3].content[0]",
				Message: "tool_use toolu_01A has no tool_result in the next message"},
			{Check: "ANT-THINK-001", Severity: SeverityWarning, Interaction: 3, Location: "request.messages[1].content[0].signature",
				Message: "signature differs from the one recorded in interaction 0", Diff: ByteDiff([]byte("EqQBCkYIBx"), []byte("EqQBCkZIBx"))},
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

func TestSelect(t *testing.T) {
	all := Checks()
	got, err := Select(nil, nil)
	if err != nil || len(got) != len(all) {
		t.Fatalf("Select() = %d checks, %v; want all %d", len(got), err, len(all))
	}
	got, err = Select([]string{"ANT-STREAM-*"}, []string{"ANT-STREAM-004"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, " ") != "ANT-STREAM-001 ANT-STREAM-002 ANT-STREAM-003" {
		t.Errorf("Select = %v", ids)
	}
	if _, err := Select([]string{"NOPE-*"}, nil); err == nil {
		t.Error("a filter selecting nothing must fail")
	}
	if _, err := Select([]string{"["}, nil); err == nil {
		t.Error("a malformed glob must fail")
	}
}

func TestByteDiff(t *testing.T) {
	if d := ByteDiff([]byte("same"), []byte("same")); d != "" {
		t.Errorf("equal inputs: %q", d)
	}
	d := ByteDiff([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), []byte("0123456789abcdefghijKlmnopqrstuvwxyz0123456789"))
	for _, want := range []string{"first difference at byte 20", `-want: …"456789abcdefghijklmnopqrstuvwxyz"…`, `+got:  …"456789abcdefghijKlmnopqrstuvwxyz"…`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if d := ByteDiff([]byte("abc"), []byte("abcd")); !strings.Contains(d, "byte 3 (want 3 bytes, got 4)") {
		t.Errorf("length diff: %s", d)
	}
}
