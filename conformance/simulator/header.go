package simulator

import (
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
)

// FindingHeader is the response header that carries, one value each, the
// errors and warnings found on a request (lint.FindingHeader).
const FindingHeader = lint.FindingHeader

// FindingLine is f as one header value (lint.FindingLine).
func FindingLine(f check.Finding) string { return lint.FindingLine(f) }
