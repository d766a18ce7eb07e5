package engine

import (
	"regexp"

	"github.com/llmtck/llmtck/traffic"
)

// RedactionPolicy scrubs reasoning text for recorders and audit logs (seed
// 000's RedactionPolicy.thinkingPatterns) without touching what is sent to
// the provider: a signed thinking block must be echoed byte-exact, so only
// copies made for observers are redacted, and signatures, redacted data and
// encrypted content are never changed.
type RedactionPolicy struct {
	// ThinkingPatterns are replaced, wherever they match in thinking,
	// reasoning and thought text, by Replacement.
	ThinkingPatterns []*regexp.Regexp
	// Replacement is what a match becomes; "" means "[redacted]".
	Replacement string
}

// Enabled reports whether the policy redacts anything.
func (p RedactionPolicy) Enabled() bool { return len(p.ThinkingPatterns) > 0 }

// Thinking returns text with every pattern's matches replaced.
func (p RedactionPolicy) Thinking(text string) string {
	with := p.Replacement
	if with == "" {
		with = "[redacted]"
	}
	for _, re := range p.ThinkingPatterns {
		text = re.ReplaceAllLiteralString(text, with)
	}
	return text
}

// Message returns a deep copy of m for an observer, with the text of its
// thinking and reasoning blocks (and their summaries) redacted. m itself,
// the copy the provider gets, is unchanged.
func (p RedactionPolicy) Message(m traffic.Message) traffic.Message {
	m = m.Clone()
	if !p.Enabled() {
		return m
	}
	for i := range m.Blocks {
		p.block(&m.Blocks[i])
	}
	return m
}

func (p RedactionPolicy) block(b *traffic.Block) {
	switch b.Type {
	case traffic.BlockThinking, traffic.BlockReasoning:
		b.Text = p.Thinking(b.Text)
		for i := range b.Content {
			b.Content[i].Text = p.Thinking(b.Content[i].Text)
		}
	}
}
