package gemini

import (
	"encoding/base64"
	"fmt"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/traffic"
)

// What the Gemini signature checks share: how a finding names a part, a
// recorded origin and a step, how severe a signature fault is, and how a
// fault kept in a growing history is reported once.

// gemLoc is the location of a part's signature, rendered only when a
// finding needs it: most signatures are fine.
type gemLoc struct{ b *traffic.Block }

func (l gemLoc) String() string { return "request." + l.b.Path + ".thoughtSignature" }

// gemSeverity: a wrong or misplaced signature fails the request only on a
// function-call part of the current turn, on a model that validates
// signatures; elsewhere the API does not check it and the model degrades.
func gemSeverity(rec, echo *traffic.Block, current, enforcing bool) check.Severity {
	call := rec.Type == traffic.BlockToolCall || echo.Type == traffic.BlockToolCall
	if call && current && enforcing {
		return check.SeverityError
	}
	return check.SeverityWarning
}

// gemOnce reports a fault about one recorded part once per cassette, so a
// history that keeps a broken part is not reported again in every later
// request; an error (current turn) is always reported.
type gemOnce map[gemFault]bool

type gemFault struct {
	fault string
	o     *gemOrigin
}

func (s gemOnce) first(sev check.Severity, fault string, o *gemOrigin) bool {
	key := gemFault{fault, o}
	if sev == check.SeverityError {
		s[key] = true
		return true
	}
	if s[key] {
		return false
	}
	s[key] = true
	return true
}

// gemStep names the step a call belongs to, for messages.
func gemStep(c int, run *gemRun) string {
	which := "a later call"
	if c == 0 {
		which = "the first call"
	}
	turn := "an older turn"
	if run.current {
		turn = "the current turn"
	}
	return fmt.Sprintf("model turn contents[%d] (%s, %s)", run.first, which, turn)
}

// gemNested adds a note when the call has its signature nested inside.
func gemNested(b *traffic.Block) string {
	if _, ok := gemini.NestedSignature(b); ok {
		return " (the one nested inside " + b.WireType + " does not count: GEM-SIG-001)"
	}
	return ""
}

// gemWhere names a recorded response part.
func gemWhere(o *gemOrigin) string {
	return fmt.Sprintf("interaction %d's response part %s", o.out.ex, o.block().Path)
}

// gemDescribe names a part for messages: its kind and a little content.
func gemDescribe(b *traffic.Block) string {
	switch gemKindOf(b) {
	case gemKindCall:
		return "functionCall " + b.Name
	case gemKindResult:
		return "functionResponse " + b.Name
	case gemKindText:
		return fmt.Sprintf("text part %q", show.Clip(b.Text, 30))
	case gemKindThought:
		return fmt.Sprintf("thought part %q", show.Clip(b.Text, 30))
	case gemKindEmpty:
		return "empty-text part"
	}
	if b.WireType != "" {
		return b.WireType + " part"
	}
	return "part"
}

func gemClipRaw(raw []byte) string {
	return show.Clip(string(raw), 48)
}

func gemStd(b []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(b))
}
