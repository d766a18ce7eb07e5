package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
)

// The JUnit XML schema as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one testsuite per file and one
// testcase per file × applicable check, so CI lists every check. Error
// findings fail their testcase; warnings and infos are kept in its
// system-out; a file that cannot be read is one testcase in error.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{}
	for _, f := range r.Files {
		s := junitSuite{Name: f.Path}
		if f.Error != "" {
			s.Cases = append(s.Cases, junitCase{Name: "decode", Classname: f.Path,
				Error: &junitMessage{Message: f.Error, Type: "unreadable", Text: f.Error}})
			s.Errors++
		}
		byCheck := map[string][]check.Finding{}
		for _, fd := range f.Findings {
			byCheck[fd.Check] = append(byCheck[fd.Check], fd)
		}
		for _, id := range f.Checked {
			tc := junitCase{Name: id, Classname: f.Path}
			var failed, other []string
			for _, fd := range byCheck[id] {
				text := fd.String()
				if fd.Diff != "" {
					text += "\n" + fd.Diff
				}
				if fd.Severity == check.SeverityError {
					failed = append(failed, text)
				} else {
					other = append(other, text)
				}
			}
			if len(failed) > 0 {
				tc.Failure = &junitMessage{
					Message: fmt.Sprintf("%d error-level finding(s)", len(failed)),
					Type:    id,
					Text:    strings.Join(failed, "\n"),
				}
				s.Failures++
			}
			tc.SystemOut = strings.Join(other, "\n")
			s.Cases = append(s.Cases, tc)
		}
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
