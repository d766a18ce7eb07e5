package anthropic

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

func judgeNoEmptyContent(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			if !q.fresh[k] || k == len(msgs)-1 && m.Role == traffic.RoleAssistant {
				continue // the optional final assistant message may be empty
			}
			if m.ContentNull || len(m.Blocks) == 0 || m.ContentString && strings.TrimSpace(m.Blocks[0].Text) == "" {
				r.Add(i, "request."+m.Path+".content", "messages[%d] (%s) has empty content", k, m.Role)
				continue
			}
			substance := hasSubstance(m)
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if b.Type != traffic.BlockText || strings.TrimSpace(b.Text) != "" {
					continue
				}
				switch {
				case b.Text == "":
					r.Add(i, blockLoc(b, "text"), "text block content[%d] of messages[%d] (%s) is empty", p, k, m.Role)
				case !substance:
					r.Add(i, blockLoc(b, "text"), "text block content[%d] of messages[%d] (%s) is whitespace only, and the message holds nothing else", p, k, m.Role)
				}
				// Whitespace beside other content is accepted: LibreChat-AI/agents#124
				// tried [text:' ', text:'real'] on the API, and a " " text before
				// tool_use blocks was answered 200.
			}
		}
	})
}

func judgeRolesAlternate(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		// The Messages API, on Amazon Bedrock's InvokeModel too, combines
		// consecutive same-role turns (docs/provider-rules.md A11); only a
		// recorded refusal that names the rule makes it an error.
		sev := check.SeverityInfo
		if q.ex.Status >= 400 && bytes.Contains(q.ex.ResponseBody, []byte("roles must alternate")) {
			sev = check.SeverityError
		}
		msgs := q.req.Messages
		for k := 1; k < len(msgs); k++ {
			role := msgs[k].Role
			if q.fresh[k] && role == msgs[k-1].Role && (role == traffic.RoleUser || role == traffic.RoleAssistant) {
				r.AddSeverity(sev, i, "request."+msgs[k].Path+".role", "messages[%d] is a second %s message in a row", k, role)
			}
		}
	})
}

// judgeVersionHeaderKept reports a missing version header once per cassette: it is
// the recorder's policy, not one request's fault.
func judgeVersionHeaderKept(tr *check.Traffic, r *check.Reporter) {
	var noVersion []int
	requests := 0
	for i := tr.From; i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		if ex.Wire != traffic.WireAnthropic || ex.Method == "" {
			continue // response-only records have no request side
		}
		requests++
		h := ex.RequestHeader
		bodyVersion := false
		if ex.Request != nil {
			_, bodyVersion = ex.Request.Extra["anthropic_version"]
		}
		if len(h) > 0 && h.Get("Anthropic-Version") == "" && !bodyVersion && platform(ex.URL) == "the Anthropic API" {
			noVersion = append(noVersion, i)
		}
	}
	if len(noVersion) > 0 {
		i := noVersion[0]
		r.Add(i, "request.headers.anthropic-version", "%d of %d recorded requests have no anthropic-version header, this one first (recorded headers: %s)",
			len(noVersion), requests, headerNames(tr.Exchanges[i].RequestHeader))
	}
}

func headerNames(h http.Header) string {
	return strings.ToLower(strings.Join(sortedKeys(h), ", "))
}

// hasSubstance reports whether a message holds anything but blank text:
// non-whitespace text, a tool call or result, an image, thinking.
func hasSubstance(m *traffic.Message) bool {
	for p := range m.Blocks {
		b := &m.Blocks[p]
		if b.Type != traffic.BlockText || strings.TrimSpace(b.Text) != "" {
			return true
		}
	}
	return false
}
