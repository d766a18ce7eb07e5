package checks_test

import (
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/engine"
)

// lintNext judges next against history with cs, as the recording proxy does.
func lintNext(history []engine.Exchange, next engine.Exchange, cs []*check.Check) []check.Finding {
	l := lint.New(cs)
	for _, ex := range history {
		l.Add(ex)
	}
	return l.Judge(next).Findings
}
