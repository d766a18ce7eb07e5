package runner

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
)

// Formats are the report formats Write takes.
var Formats = []string{"text", "json", "junit", "github"}

// Passed reports whether every result passed.
func Passed(results []Result) bool {
	for _, r := range results {
		if !r.Pass {
			return false
		}
	}
	return true
}

// Write writes results in format (one of Formats).
func Write(w io.Writer, format string, results []Result) error {
	switch format {
	case "text", "":
		return WriteText(w, results)
	case "json":
		return WriteJSON(w, results)
	case "junit":
		return WriteJUnit(w, results)
	case "github":
		return WriteGitHub(w, results)
	}
	return fmt.Errorf("unknown format %q (have %s)", format, strings.Join(Formats, ", "))
}

// summary is the closing line: counts and time.
func summary(results []Result) string {
	pass, warn := 0, 0
	var total time.Duration
	for _, r := range results {
		total += r.Duration
		if r.Pass {
			pass++
		}
		if len(r.Warnings) > 0 {
			warn++
		}
	}
	return fmt.Sprintf("%d scenarios: %d passed, %d failed, %d with warnings (%v)\n", len(results), pass, len(results)-pass, warn, total.Round(time.Millisecond))
}

// WriteText writes a line per scenario (PASS or FAIL, the name, the steps
// served, the time), then under a failed one why, the provider errors the
// harness saw and the end of its output; warnings under any.
func WriteText(w io.Writer, results []Result) error {
	var b strings.Builder
	for _, r := range results {
		verdict := "PASS"
		if !r.Pass {
			verdict = "FAIL"
		}
		fmt.Fprintf(&b, "%s %s (%d/%d steps, %v)\n", verdict, r.Name, r.Served, r.Steps, r.Duration.Round(time.Millisecond))
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "    %s\n", f)
		}
		for _, rf := range r.Refusals {
			fmt.Fprintf(&b, "    the harness was answered (step %d): HTTP %d %s\n", rf.Step, rf.Status, rf.Body)
		}
		for _, wn := range r.Warnings {
			fmt.Fprintf(&b, "    %s\n", wn)
		}
		if ids := fixIDs(r.Findings); len(ids) > 0 {
			fmt.Fprintf(&b, "    how to fix: llmtck explain %s\n", strings.Join(ids, " "))
		}
		if !r.Pass && r.Output != "" {
			fmt.Fprintf(&b, "    output of the command:\n%s", indent(r.Output, "      | "))
		}
	}
	b.WriteString(summary(results))
	_, err := io.WriteString(w, b.String())
	return err
}

// fixIDs are the distinct check IDs of fs, in order.
func fixIDs(fs []check.Finding) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.Check] {
			seen[f.Check] = true
			out = append(out, f.Check)
		}
	}
	return out
}

func indent(s, prefix string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix)
		b.WriteString(strings.TrimRight(line, "\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

// jsonReport is the layout of WriteJSON.
type jsonReport struct {
	Version   int            `json:"version"`
	Scenarios []jsonScenario `json:"scenarios"`
	Summary   jsonSummary    `json:"summary"`
}

type jsonScenario struct {
	Name       string        `json:"name"`
	Pass       bool          `json:"pass"`
	DurationMS int64         `json:"duration_ms"`
	ExitCode   int           `json:"exit_code"`
	TimedOut   bool          `json:"timed_out"`
	Steps      int           `json:"steps"`
	Served     int           `json:"served"`
	Requests   int           `json:"requests"`
	Failures   []string      `json:"failures"`
	Warnings   []string      `json:"warnings"`
	Refusals   []Refusal     `json:"refusals"`
	Findings   []jsonFinding `json:"findings"`
	Output     string        `json:"output,omitempty"`
}

type jsonFinding struct {
	Check       string `json:"check"`
	Severity    string `json:"severity"`
	Interaction int    `json:"interaction"`
	Location    string `json:"location"`
	Message     string `json:"message"`
}

type jsonSummary struct {
	Scenarios int `json:"scenarios"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
}

// WriteJSON writes the results as one JSON document, version 1.
func WriteJSON(w io.Writer, results []Result) error {
	rep := jsonReport{Version: 1, Scenarios: []jsonScenario{}}
	for _, r := range results {
		s := jsonScenario{Name: r.Name, Pass: r.Pass, DurationMS: r.Duration.Milliseconds(), ExitCode: r.ExitCode, TimedOut: r.TimedOut,
			Steps: r.Steps, Served: r.Served, Requests: r.Requests, Failures: nonNil(r.Failures), Warnings: nonNil(r.Warnings),
			Refusals: r.Refusals, Findings: []jsonFinding{}}
		if s.Refusals == nil {
			s.Refusals = []Refusal{}
		}
		if !r.Pass {
			s.Output = r.Output
		}
		for _, f := range r.Findings {
			s.Findings = append(s.Findings, jsonFinding{Check: f.Check, Severity: string(f.Severity), Interaction: f.Interaction, Location: f.Location, Message: f.Message})
		}
		rep.Scenarios = append(rep.Scenarios, s)
		rep.Summary.Scenarios++
		if r.Pass {
			rep.Summary.Passed++
		} else {
			rep.Summary.Failed++
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Time     string     `xml:"time,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes one testsuite "llmtck test" with a testcase per
// scenario: a failed one carries its first reason as the message and every
// reason, refusal and the command's output below; warnings go to
// system-out. Times are in seconds.
func WriteJUnit(w io.Writer, results []Result) error {
	var total time.Duration
	suite := junitSuite{Name: "llmtck test"}
	for _, r := range results {
		total += r.Duration
		c := junitCase{Name: r.Name, Classname: "llmtck." + strings.SplitN(r.Name, "/", 2)[0], Time: seconds(r.Duration)}
		if !r.Pass {
			var text strings.Builder
			for _, f := range r.Failures {
				text.WriteString(f + "\n")
			}
			for _, rf := range r.Refusals {
				fmt.Fprintf(&text, "the harness was answered (step %d): HTTP %d %s\n", rf.Step, rf.Status, rf.Body)
			}
			if r.Output != "" {
				text.WriteString("output of the command:\n" + r.Output)
			}
			c.Failure = &junitFailure{Message: r.Failures[0], Type: "llmtck", Text: text.String()}
			suite.Failures++
		}
		if len(r.Warnings) > 0 {
			c.SystemOut = strings.Join(r.Warnings, "\n")
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests, suite.Time = len(results), seconds(total)
	out := junitSuites{Tests: suite.Tests, Failures: suite.Failures, Time: suite.Time, Suite: suite}
	data, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, data)
	return err
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteGitHub writes GitHub Actions workflow commands: an ::error per
// failure reason and a ::warning per warning, titled with the scenario,
// then the text report for the log.
func WriteGitHub(w io.Writer, results []Result) error {
	var b strings.Builder
	for _, r := range results {
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "::error title=%s::%s\n", ghProperty("llmtck "+r.Name), ghData(f))
		}
		for _, wn := range r.Warnings {
			fmt.Fprintf(&b, "::warning title=%s::%s\n", ghProperty("llmtck "+r.Name), ghData(wn))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return WriteText(w, results)
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
