package checks_test

import (
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/traffic"
)

// lintNext judges next against history with the checks cs, as the recording
// proxy does.
func lintNext(history []traffic.Exchange, next traffic.Exchange, cs []*check.Check) []check.Finding {
	l := lint.New(cs)
	for _, ex := range history {
		l.Add(ex)
	}
	return l.Judge(next).Findings
}
