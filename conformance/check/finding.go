package check

import "fmt"

// Severity says what a violation costs.
type Severity string

const (
	// SeverityError: the provider rejects the request (HTTP 4xx).
	SeverityError Severity = "error"
	// SeverityWarning: the provider silently drops or degrades something.
	SeverityWarning Severity = "warning"
	// SeverityInfo: best practice or harness hygiene, not enforced by the provider.
	SeverityInfo Severity = "info"
)

// Finding is one violation of one check at one place in the traffic. It is
// the one finding type of llmtck: the reports, the recording proxy, the
// simulator and the go test helpers all carry it.
type Finding struct {
	Check    string   `json:"check"`
	Severity Severity `json:"severity"`
	// Interaction is the 0-based index of the interaction in the cassette.
	Interaction int `json:"interaction"`
	// Location is a JSON path into that interaction, prefixed by its side:
	// "request.messages[3].content[0]", "response.events[7]".
	Location string `json:"location"`
	Message  string `json:"message"`
	// Diff explains a mismatch: a go-cmp diff (-want +got) for structures, or
	// the first differing byte offset with a window of both sides for bytes.
	Diff string `json:"diff,omitempty"`
}

// String renders the finding on one line, diff excluded.
func (f Finding) String() string {
	loc := ""
	if f.Location != "" {
		loc = " " + f.Location
	}
	return fmt.Sprintf("[%d] %s %s%s: %s", f.Interaction, f.Severity, f.Check, loc, f.Message)
}
