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

// partLoc is the location of a part's signature, rendered only when a
// finding needs it: most signatures are fine.
type partLoc struct{ b *traffic.Block }

func (l partLoc) String() string { return "request." + l.b.Path + ".thoughtSignature" }

// severity: a wrong or misplaced signature fails the request only on a
// function-call part of the current turn, on a model that validates
// signatures; elsewhere the API does not check it and the model degrades.
func severity(rec, echo *traffic.Block, current, enforcing bool) check.Severity {
	call := rec.Type == traffic.BlockToolCall || echo.Type == traffic.BlockToolCall
	if call && current && enforcing {
		return check.SeverityError
	}
	return check.SeverityWarning
}

// reportedFaults reports a fault about one recorded part once per cassette, so a
// history that keeps a broken part is not reported again in every later
// request; an error (current turn) is always reported.
type reportedFaults map[faultKey]bool

type faultKey struct {
	fault string
	o     *source
}

func (s reportedFaults) first(sev check.Severity, fault string, o *source) bool {
	key := faultKey{fault, o}
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

// step names the step a call belongs to, for messages.
func step(c int, run *modelRun) string {
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

// nested adds a note when the call has its signature nested inside.
func nested(b *traffic.Block) string {
	if _, ok := gemini.NestedSignature(b); ok {
		return " (the one nested inside " + b.WireType + " does not count: GEM-SIG-001)"
	}
	return ""
}

// originPlace names a recorded response part.
func originPlace(o *source) string {
	return fmt.Sprintf("interaction %d's response part %s", o.out.ex, o.block().Path)
}

// describe names a part for messages: its kind and a little content.
func describe(b *traffic.Block) string {
	switch kindOf(b) {
	case kindCall:
		return "functionCall " + b.Name
	case kindResult:
		return "functionResponse " + b.Name
	case kindText:
		return fmt.Sprintf("text part %q", show.Clip(b.Text, 30))
	case kindThought:
		return fmt.Sprintf("thought part %q", show.Clip(b.Text, 30))
	case kindEmpty:
		return "empty-text part"
	}
	if b.WireType != "" {
		return b.WireType + " part"
	}
	return "part"
}

func clipRaw(raw []byte) string {
	return show.Clip(string(raw), 48)
}

func stdBase64(b []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(b))
}
