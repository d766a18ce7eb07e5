package report

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
)

// The JUnit XML schema as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
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
// findings fail their testcase, the first as the failure's message and
// each on a line of its own below; warnings and infos are kept in its
// system-out; a file that cannot be read is one testcase in error. Times
// are in seconds.
func (r *Report) WriteJUnit(w io.Writer) error {
	out := junitSuites{}
	var total time.Duration
	for _, f := range r.Files {
		total += f.Elapsed
		s := junitSuite{Name: f.Path, Time: seconds(f.Elapsed)}
		if f.Error != "" {
			s.Cases = append(s.Cases, junitCase{Name: "decode", Classname: f.Path, Time: seconds(f.Elapsed),
				Error: &junitMessage{Message: f.Error, Type: "unreadable", Text: f.Error}})
			s.Errors++
		}
		byCheck := map[string][]check.Finding{}
		for _, fd := range f.Findings {
			byCheck[fd.Check] = append(byCheck[fd.Check], fd)
		}
		for _, id := range f.Checked {
			tc := junitCase{Name: id, Classname: f.Path, Time: seconds(f.Took[id])}
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
					Message: firstLine(failed[0]),
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
	out.Time = seconds(total)
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

// seconds writes a duration as JUnit's time attribute.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
