package conformance

import (
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/conformance/simulator"
)

// The types a harness repository meets, declared in the packages that
// produce them and named here so one import serves a test.
type (
	// Session is what a harness is given to play one scenario.
	Session = simulator.Session
	// Tool is a tool a Session asks the harness to register.
	Tool = simulator.Tool
	// Turn is one user message of a Session.
	Turn = simulator.Turn

	// Finding is one violation of one check at one place in the traffic.
	Finding = check.Finding
	// Severity says what a violation costs.
	Severity = check.Severity

	// Report is the result of checking files: the JSON report of
	// `llmtck check --format json`, version 1.
	Report = report.Report
	// FileReport is one checked file of a Report.
	FileReport = report.FileReport
	// Summary counts over all files of a Report.
	Summary = report.Summary
)

// Severities.
const (
	SeverityError   = check.SeverityError
	SeverityWarning = check.SeverityWarning
	SeverityInfo    = check.SeverityInfo
)

// TB is the part of testing.TB that CheckCassette and Golden use, so an
// Example or another test framework can show what a failure prints. A
// *testing.T is one.
type TB interface {
	Helper()
	Name() string
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}
