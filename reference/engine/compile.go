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
	// system messages, then the experiences section when there is one,
	// plain thoughts that had no assistant message to lead, and the text of
	// ephemeral system messages.
	System []traffic.Block
	// Messages is the history after the leading system messages, with the
	// routed thoughts placed, content-less assistant turns left out, and the
	// ephemeral user and assistant messages after it.
	Messages []traffic.Message
	// Thoughts says where each thought went; Elided ones were not sent.
	Thoughts Dispatch
}

// Compile builds the next request's content from the history, the
// committed experiences, the queued ephemeral messages and thoughts routed
// for an adapter on wire that replays the tags in accepts. Thoughts are
// routed here, per request, and never enter the history: they lead the
// latest assistant message the transcript started with (see PlaceThoughts),
// so what is stored after a run holds no routed copy, and a later run given
// the same thoughts sends each once. Ephemeral messages go last, after
// every tool result. It fails while tool calls wait for results. The
// transcript is not changed.
func (t *Transcript) Compile(thoughts []Thought, wire traffic.Wire, accepts []string) (Compiled, error) {
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
	c.Messages = t.msgs[n:]
	at := -1
	if t.anchor > n && t.anchor <= len(t.msgs) && t.msgs[t.anchor-1].Role == traffic.RoleAssistant {
		at = t.anchor - 1 - n
	}
	c.System, c.Messages, c.Thoughts = PlaceThoughts(c.System, c.Messages, at, thoughts, wire, accepts)
	c.Messages = withoutEmptyAssistant(c.Messages)
	c.System, c.Messages = placeEphemeral(c.System, c.Messages, t.ephemeral)
	return c, nil
}

// withoutEmptyAssistant leaves out assistant messages with no content (a
// truncation before any text, an answer with neither content nor calls):
// every wire refuses an empty turn. The messages on either side join when
// they have one role and neither holds tool results, so roles still
// alternate. msgs is not changed.
func withoutEmptyAssistant(msgs []traffic.Message) []traffic.Message {
	if !slices.ContainsFunc(msgs, emptyAssistant) {
		return msgs
	}
	out := make([]traffic.Message, 0, len(msgs))
	joinNext := false
	for _, m := range msgs {
		if emptyAssistant(m) {
			joinNext = true
			continue
		}
		if n := len(out); joinNext && n > 0 && out[n-1].Role == m.Role && m.Role == traffic.RoleUser && !holdsResults(out[n-1]) && !holdsResults(m) {
			out[n-1] = Joined(out[n-1], m)
		} else {
			out = append(out, m)
		}
		joinNext = false
	}
	return out
}

// Joined is a followed by b's blocks, as one message of a's role: how two
// messages of one role in a row are sent where a wire wants roles to
// alternate. Neither a nor b is changed.
func Joined(a, b traffic.Message) traffic.Message {
	a.Blocks = slices.Concat(a.Blocks, b.Blocks)
	a.ContentString, a.ContentNull = false, false
	return a
}

func emptyAssistant(m traffic.Message) bool {
	return m.Role == traffic.RoleAssistant && len(m.Blocks) == 0
}

func holdsResults(m traffic.Message) bool {
	return slices.ContainsFunc(m.Blocks, func(b traffic.Block) bool { return b.Type == traffic.BlockToolResult })
}

// placeEphemeral puts the ephemeral messages where every wire takes them
// (docs/reference-model.md, seed 000: an ephemeral message is sent with
// the next request). A system one joins the system prompt: the Anthropic,
// Bedrock and Gemini wires have no system role inside the conversation and
// refuse one there. A user or assistant one follows the history, joined to
// the message before it when that has the same role, so roles still
// alternate, as Bedrock requires. The joined copy is not marked Ephemeral:
// it holds history too, and a reader that collects ephemeral content must
// not take the history's part for it. Nothing passed in is changed.
func placeEphemeral(system []traffic.Block, msgs, eph []traffic.Message) ([]traffic.Block, []traffic.Message) {
	if len(eph) == 0 {
		return system, msgs
	}
	system = slices.Clip(system)
	out := slices.Clip(msgs)
	for _, m := range eph {
		if m.Role == traffic.RoleSystem {
			system = append(system, m.Blocks...)
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out = append(out[:n-1:n-1], Joined(out[n-1], m))
			continue
		}
		out = append(out, m)
	}
	return system, out
}

// PlaceThoughts routes thoughts for an adapter on wire that replays the
// tags in accepts and places the routed ones in a request's content: they
// lead msgs[at], an assistant message, opaque ones first (providers want
// thinking first). With at < 0 there is no assistant message to lead:
// plain thoughts, replayable everywhere, join the system prompt, and opaque
// ones, which a wire takes only inside an assistant turn, are elided. A
// thought whose payload (or, for a plain one, whose text) msgs already hold
// is Present and not sent twice. system and msgs are not changed; the
// results share all but what they extend.
func PlaceThoughts(system []traffic.Block, msgs []traffic.Message, at int, thoughts []Thought, wire traffic.Wire, accepts []string) ([]traffic.Block, []traffic.Message, Dispatch) {
	have := sentThoughts(msgs)
	var fresh []Thought
	var present []Thought
	for _, th := range thoughts {
		if have.holds(th) {
			present = append(present, th)
		} else {
			fresh = append(fresh, th)
		}
	}
	d := RouteThoughts(fresh, wire, accepts)
	d.Present = present
	if at < 0 || at >= len(msgs) || msgs[at].Role != traffic.RoleAssistant {
		d.Elided = append(d.Elided, d.Opaque...)
		d.Opaque = nil
		if len(d.Plain) > 0 {
			system = slices.Clone(system)
			for _, th := range d.Plain {
				system = append(system, PlainThoughtBlock(th))
			}
		}
		return system, msgs, d
	}
	var lead []traffic.Block
	for _, th := range d.Opaque {
		b, _ := ThoughtBlock(th) // RouteThoughts put only thoughts of this wire's channel here
		lead = append(lead, b)
	}
	for _, th := range d.Plain {
		lead = append(lead, PlainThoughtBlock(th))
	}
	if len(lead) == 0 {
		return system, msgs, d
	}
	out := slices.Clone(msgs)
	out[at].Blocks = slices.Concat(lead, out[at].Blocks)
	return system, out, d
}

// sent is what reasoning a request's messages already carry.
type sent struct {
	payloads  map[string]bool // signature, redacted data, encrypted content
	reasoning map[string]bool // the text of reasoning blocks
	texts     map[string]bool // text blocks, among them inlined thoughts
}

func sentThoughts(msgs []traffic.Message) sent {
	s := sent{payloads: map[string]bool{}, reasoning: map[string]bool{}, texts: map[string]bool{}}
	for _, m := range msgs {
		for _, b := range m.Blocks {
			for _, p := range [][]byte{b.Signature, b.Data, b.EncryptedContent} {
				if len(p) > 0 {
					s.payloads[string(p)] = true
				}
			}
			switch {
			case b.Type == traffic.BlockText:
				s.texts[b.Text] = true
			case isThinking(b.Type) && b.Text != "":
				s.reasoning[b.Text] = true
			}
		}
	}
	return s
}

// holds reports whether th is already in the messages: an opaque thought by
// its payload bytes, a plain one by its text or its envelope.
func (s sent) holds(th Thought) bool {
	if th.Opaque() {
		return s.payloads[string(th.Payload)]
	}
	return th.Content != "" && (s.reasoning[th.Content] || s.texts[PlainThoughtBlock(th).Text])
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
