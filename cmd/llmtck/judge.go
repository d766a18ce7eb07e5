package main

import (
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/proxy"
)

// catalogue builds the judge of one cassette: a linter running every check.
func catalogue() proxy.Judge { return lint.New(checks.All()) }

// judgeIf is catalogue when on, and no judge otherwise.
func judgeIf(on bool) func() proxy.Judge {
	if on {
		return catalogue
	}
	return nil
}
