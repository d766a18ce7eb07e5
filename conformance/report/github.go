package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
)

// WriteGitHub writes the report as GitHub Actions workflow commands: one
// annotation per finding (::error, ::warning or ::notice) on the cassette,
// titled with the check ID, and one per file that cannot be read, then the
// summary line as plain text.
func (r *Report) WriteGitHub(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Files {
		if f.Error != "" {
			fmt.Fprintf(&b, "::error file=%s,title=%s::%s\n", ghProperty(f.Path), "unreadable", ghData(f.Error))
			continue
		}
		for _, fd := range f.Findings {
			msg := fmt.Sprintf("interaction %d, %s: %s", fd.Interaction, fd.Location, fd.Message)
			if fd.Diff != "" {
				msg += "\n" + fd.Diff
			}
			fmt.Fprintf(&b, "::%s file=%s,title=%s::%s\n", ghCommand(fd.Severity), ghProperty(f.Path), ghProperty(fd.Check), ghData(msg))
		}
	}
	b.WriteString(r.summaryLine())
	_, err := io.WriteString(w, b.String())
	return err
}

func ghCommand(s check.Severity) string {
	switch s {
	case check.SeverityError:
		return "error"
	case check.SeverityWarning:
		return "warning"
	}
	return "notice"
}

// ghData escapes a workflow command's message as the runner expects.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
