package history

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/show"
	"github.com/llmtck/llmtck/traffic"
)

// HIST-005 judges content the traffic declares ephemeral (Traffic.Ephemeral,
// a cassette's llmtck_ephemeral list): the simulator declares each
// scenario turn's schema-retry feedback, so a harness that keeps it in its
// history is caught on the next request.
var ephemeralChecks = []*check.Check{
	&check.Check{
		ID: "HIST-005", Title: "Ephemeral content never persisted", Severity: check.SeverityWarning,
		Scope: "R,C", Since: "0.1.0",
		Law: "Content declared ephemeral (such as a schema-retry feedback message) appears in a request only inside its last message; in any earlier message it was persisted into the history.",
		Troubleshoot: "Ephemeral content is sent to the model once, is visible to recorders and audit, and is never persisted (docs/reference-model.md, seed 000): the provider accepts it anywhere, but a copy kept in the history goes on telling the model, turn after turn, to fix an answer it already fixed. " +
			"Typical causes: the retry loop appends the feedback to the transcript or the message store instead of to the one outgoing request, or the store ignores the message's ephemeral flag. " +
			"Fix: build the retry request as the history plus the feedback as a trailing user message, and once an answer is accepted keep only the prompt and that answer — drop the rejected answer and the feedback.",
		Judge:   judgeEphemeralNotPersisted,
		Applies: func(tr *check.Traffic) bool { return len(tr.Ephemeral) > 0 },
	},
}

// persisted is one place declared ephemeral content sat before a request's
// last message, with the later requests that still carried it there.
type persisted struct {
	interaction int
	location    string
	declared    string
	msg, of     int // 0-based message index, message count
	later       int
}

// judgeEphemeralNotPersisted finds user text blocks containing declared ephemeral text in
// any message but the last of each request. A block kept in the history
// shows up again in every later request at the same place: it is reported
// once, where it first appears, with how many later requests repeat it.
func judgeEphemeralNotPersisted(tr *check.Traffic, r *check.Reporter) {
	var found []*persisted
	byPlace := map[string]*persisted{}
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Request == nil {
			continue
		}
		msgs := ex.Request.Messages
		for m := 0; m < len(msgs)-1; m++ {
			if msgs[m].Role != traffic.RoleUser {
				continue
			}
			for k := range msgs[m].Blocks {
				b := &msgs[m].Blocks[k]
				e := declaredIn(b, tr.Ephemeral)
				if e < 0 {
					continue
				}
				loc := blockLocation(&msgs[m], b, m, k)
				place := fmt.Sprintf("%s\x00%d\x00%d", ex.Wire, e, m)
				if p := byPlace[place]; p != nil {
					p.later++
					continue
				}
				p := &persisted{interaction: ex.Index, location: loc, declared: tr.Ephemeral[e], msg: m, of: len(msgs)}
				byPlace[place] = p
				found = append(found, p)
			}
		}
	}
	for _, p := range found {
		also := ""
		if p.later > 0 {
			also = fmt.Sprintf("; %d later request(s) still carry it there", p.later)
		}
		r.Add(p.interaction, p.location,
			"ephemeral content %s sits in message %d of %d, not in the request's last message: the harness persisted it into the history%s",
			show.Quote(p.declared), p.msg+1, p.of, also)
	}
}

// declaredIn returns the index of the first declared text that b, a user
// text block, contains; -1 when none.
func declaredIn(b *traffic.Block, declared []string) int {
	if b.Type != traffic.BlockText {
		return -1
	}
	for i, d := range declared {
		if d != "" && strings.Contains(b.Text, d) {
			return i
		}
	}
	return -1
}

// blockLocation is the block's JSON path in the request, built from its
// message's when the codec left it empty.
func blockLocation(m *traffic.Message, b *traffic.Block, mi, bi int) string {
	switch {
	case b.Path != "":
		return "request." + b.Path
	case m.Path != "":
		return fmt.Sprintf("request.%s.content[%d]", m.Path, bi)
	}
	return fmt.Sprintf("request.messages[%d].content[%d]", mi, bi)
}
