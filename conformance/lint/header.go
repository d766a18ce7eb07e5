package lint

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
)

// FindingHeader is the response header that carries each error or warning
// found on a request the simulator or replay --check answers, one value per finding, so a harness
// (and its author reading an SDK's error) learns why beside the provider's
// own error body, which stays byte for byte the provider's.
const FindingHeader = "X-Llmtck-Finding"

// maxFindingLine bounds a header value; the whole finding is in the report.
const maxFindingLine = 400

// FindingLine is f as one header value: "ID severity location: message",
// on one line of printable text.
func FindingLine(f check.Finding) string {
	var b strings.Builder
	b.WriteString(f.Check)
	b.WriteByte(' ')
	b.WriteString(string(f.Severity))
	if f.Location != "" {
		b.WriteByte(' ')
		b.WriteString(strings.TrimPrefix(f.Location, "request."))
	}
	b.WriteString(": ")
	b.WriteString(f.Message)
	line := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, b.String())
	if len(line) > maxFindingLine {
		cut := maxFindingLine
		for cut > 0 && !isRuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
