package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// Compiled is what one request is built from.
type Compiled struct {
	// System is the system prompt: the blocks of the transcript's leading
	// system messages, then the experiences section when there is one.
	System []traffic.Block
	// Messages is the history after the leading system messages, with the
	// routed thoughts placed and the ephemeral messages appended.
	Messages []traffic.Message
	// Thoughts says where each thought went; Elided ones were not sent.
	Thoughts Dispatch
}

// Compile builds the next request's content from the history, the
// committed experiences, the queued ephemeral messages and thoughts routed
// for an adapter that replays the tags in accepts. Routed thoughts lead the
// latest assistant message (opaque ones first, as providers require thinking
// first); with no assistant message they are elided. Ephemeral messages go
// last, after every tool result. It fails while tool calls wait for results.
// The transcript is not changed.
func (t *Transcript) Compile(thoughts []Thought, accepts []string) (Compiled, error) {
	if len(t.pending) > 0 {
		return Compiled{}, fmt.Errorf("compile: %w: %s", ErrPendingToolCalls, t.pendingIDs())
	}
	var c Compiled
	n := 0
	for ; n < len(t.msgs) && t.msgs[n].Role == traffic.RoleSystem; n++ {
		c.System = append(c.System, t.msgs[n].Blocks...)
	}
	if len(t.experiences) > 0 {
		var b strings.Builder
		b.WriteString("<experiences>\n")
		for _, e := range t.experiences {
			b.WriteString("- [" + e.ID + "] " + experienceText(e.Text) + "\n")
		}
		b.WriteString("</experiences>")
		c.System = append(c.System, traffic.Block{Type: traffic.BlockText, Text: b.String()})
	}
	c.Messages = slices.Concat(t.msgs[n:], t.ephemeral)

	c.Messages, c.Thoughts = PlaceThoughts(c.Messages, thoughts, accepts)
	return c, nil
}

// PlaceThoughts routes thoughts for an adapter that replays the tags in
// accepts and puts the routed ones at the start of the latest assistant
// message of msgs, opaque ones first (providers want thinking first). With
// no assistant message every thought is elided. msgs is not changed; the
// result shares all messages but the one it extends.
func PlaceThoughts(msgs []traffic.Message, thoughts []Thought, accepts []string) ([]traffic.Message, Dispatch) {
	d := RouteThoughts(thoughts, accepts)
	var lead []traffic.Block
	var opaque []Thought
	for _, th := range d.Opaque {
		b, _ := ThoughtBlock(th) // RouteThoughts put only thoughts with a channel here
		lead = append(lead, b)
		opaque = append(opaque, th)
	}
	d.Opaque = opaque
	for _, th := range d.Plain {
		lead = append(lead, PlainThoughtBlock(th))
	}
	if len(lead) == 0 {
		return msgs, d
	}
	last := -1
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == traffic.RoleAssistant && !msgs[i].Ephemeral {
			last = i
			break
		}
	}
	if last < 0 {
		d.Elided = append(d.Elided, slices.Concat(d.Opaque, d.Plain)...)
		d.Opaque, d.Plain = nil, nil
		return msgs, d
	}
	out := slices.Clone(msgs)
	out[last].Blocks = slices.Concat(lead, out[last].Blocks)
	return out, d
}

// experienceText keeps an experience on its one line of the section: line
// breaks become spaces, so text cannot start a line that reads as another
// entry ("\n- [exp-9] …"), and a closing tag cannot end the section early.
func experienceText(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' }), " ")
	return closingTag.ReplaceAllString(s, "<\\/experiences>")
}

// closingTag is the section's end tag in any letter case.
var closingTag = regexp.MustCompile(`(?i)</experiences>`)
