package anthropic

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/internal/rawjson"
	antwire "github.com/llmtck/llmtck/providers/anthropic"
	"github.com/llmtck/llmtck/traffic"
)

// blockLoc is the finding location of a request block, or of one of its fields.
func blockLoc(b *traffic.Block, field string) string {
	loc := "request"
	if b.Path != "" {
		loc += "." + b.Path
	}
	if field != "" {
		loc += "." + field
	}
	return loc
}

// payloadField names the field that carries a block's opaque payload.
func payloadField(b *traffic.Block) string {
	if b.Type == traffic.BlockRedacted {
		return "data"
	}
	return "signature"
}

// originName names where an origin block came from, for messages.
func originName(o *source) string {
	return fmt.Sprintf("interaction %d (response content[%d])", o.ex, o.pos)
}

// thinkingType is the request's thinking type; "disabled" when absent.
func thinkingType(req *traffic.Request) string {
	if req.Thinking == nil || req.Thinking.Type == "" {
		return "disabled"
	}
	return req.Thinking.Type
}

func thinkingOn(req *traffic.Request) bool {
	t := thinkingType(req)
	return t == "enabled" || t == "adaptive"
}

// rejectedForSignature reports whether the provider rejected the call
// because of a thinking signature: the real traffic confirming a prefix or
// placement rule that otherwise only degrades silently.
func rejectedForSignature(ex *traffic.Exchange) bool {
	if ex.Accepted() || ex.Response == nil || ex.Response.Error == nil {
		return false
	}
	msg := ex.Response.Error.Message
	return strings.Contains(msg, "signature") || strings.Contains(msg, "bound to a different conversation") ||
		strings.Contains(msg, "cannot be modified")
}

// silentSeverity is the severity of a rule the provider enforces only on
// preserved-thinking models or when asked to: an error when the request asks
// for errors or the provider did reject it, a warning otherwise.
// silentWhy says why silentSeverity chose the severity it did.
func silentWhy(r *request) string {
	switch {
	case antwire.PrefixMismatchBehavior(r.req) == "error":
		return `an error: the request sets prefix_mismatch_behavior "error"`
	case rejectedForSignature(r.ex):
		return "an error: the provider refused this request for a signature"
	case antwire.PrefixChecked(r.req.Model):
		return fmt.Sprintf(`a warning here, as the API answered; %s refuses it unless prefix_mismatch_behavior is "drop_block"`, r.req.Model)
	}
	model := r.req.Model
	if model == "" {
		model = "this model"
	}
	return fmt.Sprintf("a warning: %s does not check the prefix; the preserved-thinking models (claude-fable-5-1 …) refuse it", model)
}

func silentSeverity(r *request) check.Severity {
	if antwire.PrefixMismatchBehavior(r.req) == "error" || rejectedForSignature(r.ex) {
		return check.SeverityError
	}
	return check.SeverityWarning
}

// foreignShape says why a payload cannot be an Anthropic signature, or
// returns "" when it could be one.
func foreignShape(s string) string {
	switch s {
	case "skip_thought_signature_validator", "context_engineering_is_the_way_to_go":
		return fmt.Sprintf("is Gemini's dummy thought signature %q", s)
	}
	if strings.HasPrefix(s, "gAAAAA") {
		return "looks like an OpenAI encrypted_content token (gAAAAA…)"
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		raw, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil {
		return fmt.Sprintf("is not base64 (%q)", short(s))
	}
	if len(raw) < 32 {
		return fmt.Sprintf("is only %d bytes once decoded, too short to be a signature", len(raw))
	}
	return ""
}

func short(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// foreign says where a payload comes from when another wire's response
// in the cassette produced it before interaction i.
func (a *analysis) foreign(payload string, i int) string {
	o, ok := a.origins.FirstElsewhere(traffic.WireAnthropic, origin.Payload, payload, i)
	if !ok {
		return ""
	}
	return fmt.Sprintf("the %s payload produced by interaction %d", o.Wire, o.Exchange)
}

func judgeThinkingUnchanged(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		for _, e := range q.echoes {
			if !q.fresh[e.msg] {
				continue
			}
			o, b := e.origin, e.block
			got := payloadOf(b)
			// No payload is ANT-THINK-002's, an unfinished origin
			// ANT-CANCEL-002's, and a replaced payload that is not
			// Anthropic's at all ANT-THINK-003's.
			if o == nil || o.unfinished || got == "" || payloadOf(o.block) == "" {
				continue
			}
			if e.match != bySig && (foreignShape(got) != "" || a.foreign(got, i) != "") {
				continue
			}
			if b.Type != o.block.Type {
				r.Add(i, blockLoc(b, "type"), "%s block echoes the %s block produced by %s: the block type was changed",
					b.Type, o.block.Type, originName(o))
				continue
			}
			want := payloadOf(o.block)
			field := payloadField(b)
			switch e.match {
			case bySig:
				if b.Type == traffic.BlockThinking && b.Text != o.block.Text {
					f := r.Add(i, blockLoc(b, "thinking"), "thinking text differs from the text %s produced with this signature", originName(o))
					f.Diff = diff.Bytes([]byte(o.block.Text), []byte(b.Text))
				}
			case byText:
				f := r.Add(i, blockLoc(b, field), "%s differs from the one %s produced for this thinking text", field, originName(o))
				f.Diff = diff.Bytes([]byte(want), []byte(got))
			case byPosition:
				also := ""
				if b.Type == traffic.BlockThinking && b.Text != o.block.Text {
					also = " (its thinking text differs too)"
				}
				f := r.Add(i, blockLoc(b, field), "%s differs from the block in its place, produced by %s%s", field, originName(o), also)
				f.Diff = diff.Bytes([]byte(want), []byte(got))
			}
		}
	})
}

func judgeThinkingCarriesPayload(tr *check.Traffic, r *check.Reporter) {
	analyze(tr).each(func(i int, q *request) {
		for k := range q.req.Messages {
			if !q.fresh[k] {
				continue
			}
			m := &q.req.Messages[k]
			for p := range m.Blocks {
				b := &m.Blocks[p]
				if !isThinkingBlock(b) {
					continue
				}
				field := payloadField(b)
				raw := b.Signature
				if b.Type == traffic.BlockRedacted {
					raw = b.Data
				}
				switch {
				case len(raw) == 0:
					r.Add(i, blockLoc(b, field), "%s block in messages[%d] (%s) has no %s", b.Type, k, m.Role, field)
				case rawjson.Kind(raw) != "string":
					r.Add(i, blockLoc(b, field), "%s block in messages[%d] (%s) has %s %s, not a string", b.Type, k, m.Role, rawjson.Kind(raw), field)
				case str(raw) == "":
					r.Add(i, blockLoc(b, field), "%s block in messages[%d] (%s) has an empty %s", b.Type, k, m.Role, field)
				}
			}
		}
	})
}

func judgeThinkingFromThisProvider(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		for _, e := range q.echoes {
			if !q.fresh[e.msg] {
				continue
			}
			b := e.block
			got := payloadOf(b)
			if got == "" {
				continue
			}
			loc := blockLoc(b, payloadField(b))
			if e.match == bySig {
				a.judgeOriginPlatform(r, i, q, e)
				continue
			}
			if from := a.foreign(got, i); from != "" {
				r.Add(i, loc, "%s of this %s block is %s: a block from another provider", payloadField(b), b.Type, from)
				continue
			}
			if e.match == unmatched && q.origin[e.msg] < 0 {
				continue // client-authored history, recorded elsewhere: not judged
			}
			if why := foreignShape(got); why != "" {
				r.Add(i, loc, "%s %s: this %s block was not produced by Anthropic", payloadField(b), why, b.Type)
				continue
			}
			if e.match == unmatched {
				r.Add(i, loc, "%s block was not produced by any recorded response: messages[%d] echoes the response of interaction %d, which has no block with this %s (synthesized)",
					b.Type, e.msg, q.origin[e.msg], payloadField(b))
			}
		}
	})
}

// judgeOriginPlatform judges a genuine echo: produced on another platform
// (error) or by another model family (warning: such blocks are dropped).
func (a *analysis) judgeOriginPlatform(r *check.Reporter, i int, q *request, e echo) {
	o := &a.tr.Exchanges[e.origin.ex]
	loc := blockLoc(e.block, payloadField(e.block))
	if from, to := platform(o.URL), platform(q.ex.URL); from != to {
		r.Add(i, loc, "%s block produced by interaction %d on %s is echoed to %s: signatures only verify where they were made", e.block.Type, e.origin.ex, from, to)
		return
	}
	model := ""
	if o.Request != nil {
		model = o.Request.Model
	}
	if model == "" && o.Response != nil {
		model = o.Response.Model
	}
	if from, to := modelFamily(model), modelFamily(q.req.Model); from != "" && to != "" && from != to {
		r.AddSeverity(check.SeverityWarning, i, loc, "%s block produced by %s (interaction %d) is echoed to %s: a model drops thinking blocks of another model", e.block.Type, model, e.origin.ex, q.req.Model)
	}
}

// platform names the platform serving a URL.
func platform(url string) string {
	u := strings.ToLower(url)
	switch {
	case strings.Contains(u, "bedrock"):
		return "Amazon Bedrock"
	case strings.Contains(u, "aiplatform.googleapis.com"):
		return "Google Vertex AI"
	}
	return "the Anthropic API"
}

var (
	modelPrefix = regexp.MustCompile(`^(?:[a-z]{2,6}\.)?anthropic\.`)
	modelSuffix = regexp.MustCompile(`(?:@.*|-v\d+(?::\d+)?|-\d{8}|-latest|-0)$`)
)

// modelFamily reduces a model id to its family: date, version and alias
// suffixes and Bedrock prefixes removed (claude-sonnet-4-20250514 and
// claude-sonnet-4-0 are both claude-sonnet-4).
func modelFamily(model string) string {
	m := modelPrefix.ReplaceAllString(strings.ToLower(model), "")
	for {
		n := modelSuffix.ReplaceAllString(m, "")
		if n == m {
			return m
		}
		m = n
	}
}

var modelVersionRe = regexp.MustCompile(`claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:[-@]|$)`)

// modelVersion returns the major and minor version of a Claude 4+
// model id (claude-opus-4-7 → 4, 7); ok is false when it is not one.
func modelVersion(model string) (major, minor int, ok bool) {
	m := modelVersionRe.FindStringSubmatch(strings.ToLower(model))
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		minor, _ = strconv.Atoi(m[2])
	}
	return major, minor, true
}

// hasBlock reports whether m holds a block of type t.
func hasBlock(m *traffic.Message, t traffic.BlockType) bool {
	for i := range m.Blocks {
		if m.Blocks[i].Type == t {
			return true
		}
	}
	return false
}

// loopStart returns the index of the assistant message that opened the
// tool loop a request continues, or -1 when the request does not end with
// tool results. The loop starts after the last user message that carries
// no tool_result (an ordinary user turn).
func loopStart(msgs []traffic.Message) int {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != traffic.RoleUser || !hasBlock(&msgs[n-1], traffic.BlockToolResult) {
		return -1
	}
	start := 0
	for k := n - 1; k >= 0; k-- {
		if msgs[k].Role == traffic.RoleUser && !hasBlock(&msgs[k], traffic.BlockToolResult) {
			start = k + 1
			break
		}
	}
	for k := start; k < n; k++ {
		if msgs[k].Role == traffic.RoleAssistant {
			return k
		}
	}
	return -1
}

func judgeToolLoopOpensWithThinking(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		if !thinkingOn(q.req) {
			return
		}
		k := loopStart(q.req.Messages)
		if k < 0 || len(q.req.Messages[k].Blocks) == 0 || !q.fresh[k] {
			return
		}
		b := &q.req.Messages[k].Blocks[0]
		if isThinkingBlock(b) {
			return
		}
		typ := thinkingType(q.req)
		if typ == "adaptive" {
			// The model may skip thinking; judge only a dropped block.
			out := a.output(q.origin[k])
			if out == nil || !isThinkingBlock(&out.Blocks[0]) {
				return
			}
		}
		r.Add(i, blockLoc(b, "type"), "thinking is %s and the request continues the tool loop opened by messages[%d], which must start with a thinking or redacted_thinking block; found %s",
			typ, k, wireType(b))
	})
}

func wireType(b *traffic.Block) string {
	if b.WireType != "" {
		return b.WireType
	}
	return string(b.Type)
}

func judgeThinkingFirstNeverLast(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		for k := range msgs {
			m := &msgs[k]
			if m.Role != traffic.RoleAssistant || len(m.Blocks) == 0 {
				continue
			}
			if q.fresh[k] && !isThinkingBlock(&m.Blocks[0]) {
				for p := range m.Blocks {
					if isThinkingBlock(&m.Blocks[p]) {
						r.Add(i, blockLoc(&m.Blocks[0], "type"), "messages[%d] contains thinking (content[%d]) but starts with %s; thinking must come first",
							k, p, wireType(&m.Blocks[0]))
						break
					}
				}
			}
			if last := &m.Blocks[len(m.Blocks)-1]; k == len(msgs)-1 && isThinkingBlock(last) {
				r.Add(i, blockLoc(last, ""), "the final assistant message messages[%d] ends with a %s block; a prefill cannot end in thinking", k, last.Type)
			}
		}
	})
}

func judgeNoThinkingWhenOff(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		if thinkingOn(q.req) || len(msgs) == 0 || msgs[len(msgs)-1].Role != traffic.RoleAssistant {
			return
		}
		k := len(msgs) - 1
		for p := range msgs[k].Blocks {
			if b := &msgs[k].Blocks[p]; isThinkingBlock(b) {
				state := "absent"
				if q.req.Thinking != nil {
					state = "disabled"
				}
				r.Add(i, blockLoc(b, ""), "thinking is %s but the final assistant message messages[%d] contains a %s block", state, k, b.Type)
				return
			}
		}
	})
}

// thinkingView is a thinking configuration as ANT-THINK-007 shows it.
type thinkingView struct {
	Type   string
	Config string
}

func (v thinkingView) String() string {
	if v.Config == "" {
		return "thinking " + v.Type
	}
	return v.Config
}

func thinkingOf(req *traffic.Request) thinkingView {
	v := thinkingView{Type: thinkingType(req)}
	if req.Thinking != nil && v.Type != "disabled" {
		v.Config = compact(req.Thinking.Raw)
	}
	return v
}

func judgeOneThinkingConfigPerLoop(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		msgs := q.req.Messages
		n := len(msgs)
		if n < 2 || !hasBlock(&msgs[n-1], traffic.BlockToolResult) || msgs[n-2].Role != traffic.RoleAssistant {
			return
		}
		m := q.origin[n-2]
		p := a.req(m)
		if p == nil {
			return
		}
		want, got := thinkingOf(p.req), thinkingOf(q.req)
		if want == got {
			return
		}
		f := r.Add(i, "request.thinking", "thinking configuration changed inside a tool loop: interaction %d made the tool calls of messages[%d] with %s, this request answers them with %s",
			m, n-2, want, got)
		f.Diff = diff.Struct(want, got)
	})
}

func judgeNoForcedToolWithThinking(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		if thinkingType(q.req) != "enabled" || len(q.req.ToolChoice) == 0 {
			return
		}
		fields, err := rawjson.Fields(q.req.ToolChoice)
		if err != nil {
			return
		}
		for _, f := range fields {
			if t := str(f.Value); f.Key == "type" && (t == "any" || t == "tool") {
				r.Add(i, "request.tool_choice", "tool_choice %s forces tool use while thinking.type is \"enabled\"", compact(q.req.ToolChoice))
			}
		}
	})
}

func judgeThinkingKeepsPrefix(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		var first *echo
		var why, diff string
		later := 0
		for x := range q.echoes {
			e := &q.echoes[x]
			if e.match != bySig || !q.fresh[e.msg] {
				continue
			}
			p := a.req(e.origin.ex)
			if p == nil {
				continue
			}
			w, d := prefixDiff(p, q, e.msg)
			if w == "" {
				continue
			}
			if first == nil {
				first, why, diff = e, w, d
			} else {
				later++
			}
		}
		if first == nil {
			return
		}
		msg := fmt.Sprintf("%s block produced by interaction %d is echoed in messages[%d] after a different prefix: %s",
			first.block.Type, first.origin.ex, first.msg, why)
		if later > 0 {
			msg += fmt.Sprintf("; %d later echoed thinking block(s) are invalidated too", later)
		}
		msg += " (" + silentWhy(q) + ")"
		f := r.AddSeverity(q.silent, i, blockLoc(first.block, ""), "%s", msg)
		f.Diff = diff
	})
}

// prefixDiff compares what came before message k of echo request q with
// what the producing request p sent: system, tools, and p's messages, which
// must be q's first k (or, for a continued prefill, q's first k and the
// start of message k). It says what differs, with a diff, or "" when equal.
func prefixDiff(p, q *request, k int) (why, detail string) {
	h := thread.NewHasher(traffic.WireAnthropic)
	if p.system != q.system {
		return "the system prompt differs from the one the block was created with",
			diff.Struct(viewBlocks(p.req.System), viewBlocks(q.req.System))
	}
	if p.tools != q.tools {
		return "the tools differ from the ones the block was created with",
			diff.Struct(viewTools(p.req.Tools), viewTools(q.req.Tools))
	}
	pm, qm := p.req.Messages, q.req.Messages
	np := len(pm)
	prefill := np == k+1 && pm[k].Role == traffic.RoleAssistant
	if (np == k || prefill) && p.prefix[k] == q.prefix[k] {
		if !prefill {
			return "", ""
		}
		// A continued prefill: the message starts with the blocks sent.
		ok := len(pm[k].Blocks) <= len(qm[k].Blocks)
		for j := 0; ok && j < len(pm[k].Blocks); j++ {
			ok = h.Block(&pm[k].Blocks[j]) == h.Block(&qm[k].Blocks[j])
		}
		if ok {
			return "", ""
		}
		return fmt.Sprintf("messages[%d] no longer starts with the assistant content the block's request continued", k),
			diff.Struct(viewMessage(&pm[k]), viewMessage(&qm[k]))
	}
	for j := 0; j < min(np, k); j++ {
		if p.msgHash[j] != q.msgHash[j] {
			return fmt.Sprintf("messages[%d] differs from the one the block was created after", j),
				diff.Struct(viewMessage(&pm[j]), viewMessage(&qm[j]))
		}
	}
	if np > k {
		return fmt.Sprintf("the block was created after %d messages, but only %d precede it now (messages dropped)", np, k),
			diff.Struct(viewMessage(&pm[k]), nil)
	}
	return fmt.Sprintf("the block was created after %d messages, but %d precede it now (messages inserted)", np, k),
		diff.Struct(nil, viewMessage(&qm[np]))
}

func judgeThinkingInPlace(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	a.each(func(i int, q *request) {
		claimed := map[*traffic.Block]bool{}
		lastEcho := -1 // the last message with a genuine echo
		for _, e := range q.echoes {
			if e.origin != nil {
				claimed[e.origin.block] = true
				if e.match == bySig {
					lastEcho = e.msg
				}
			}
		}
		x := 0
		for k := range q.req.Messages {
			if q.req.Messages[k].Role != traffic.RoleAssistant {
				continue
			}
			start := x
			for x < len(q.echoes) && q.echoes[x].msg == k {
				x++
			}
			if !q.fresh[k] {
				continue
			}
			sev := q.silent
			if k == q.lastAssistant {
				sev = check.SeverityError
			}
			if !a.judgePlacement(r, i, q, q.echoes[start:x], sev) {
				a.judgeOmission(r, i, q, k, q.echoes[start:x], claimed, lastEcho, sev)
			}
		}
	})
}

// judgePlacement reports the first echo of a message that is out of order
// or not where its origin puts it; it reports whether it found one.
func (a *analysis) judgePlacement(r *check.Reporter, i int, q *request, echoes []echo, sev check.Severity) bool {
	var prev *source
	for x := range echoes {
		o := echoes[x].origin
		if o == nil || o.unfinished {
			continue
		}
		if prev != nil && (o.ex < prev.ex || o.ex == prev.ex && o.pos < prev.pos) {
			r.AddSeverity(sev, i, blockLoc(echoes[x].block, ""), "%s block produced by %s comes after the one produced by %s: thinking blocks were reordered",
				echoes[x].block.Type, originName(o), originName(prev))
			return true
		}
		prev = o
	}
	for x := range echoes {
		e := &echoes[x]
		o := e.origin
		if o == nil || o.unfinished {
			continue
		}
		// A continued response (pause_turn) may be merged after its prefill.
		if e.pos != o.pos && e.pos != a.continuedOffset(o.ex)+o.pos {
			r.AddSeverity(sev, i, blockLoc(e.block, ""), "%s block produced by %s is at content[%d] of messages[%d], not content[%d]: it was moved or blocks before it were added or removed",
				e.block.Type, originName(o), e.pos, e.msg, o.pos)
			return true
		}
	}
	return false
}

// continuedOffset is where exchange ex's output starts in the message that
// echoes it: after the prefill when its request continued an assistant
// message (pause_turn), at 0 otherwise.
func (a *analysis) continuedOffset(ex int) int {
	p := a.req(ex)
	if p == nil || len(p.req.Messages) == 0 {
		return 0
	}
	if last := &p.req.Messages[len(p.req.Messages)-1]; last.Role == traffic.RoleAssistant {
		return len(last.Blocks)
	}
	return 0
}

// judgeOmission reports thinking blocks of the response that message k
// echoes that are missing from it: some of them left out (A1 in the latest
// message), or all of them while a later message echoes thinking (A12).
func (a *analysis) judgeOmission(r *check.Reporter, i int, q *request, k int, echoes []echo, claimed map[*traffic.Block]bool, lastEcho int, sev check.Severity) {
	m := q.origin[k]
	out := a.output(m)
	if out == nil {
		return
	}
	echoed := false
	for _, e := range echoes {
		echoed = echoed || e.origin != nil && e.origin.ex == m
	}
	for p := range out.Blocks {
		b := &out.Blocks[p]
		if !isThinkingBlock(b) || claimed[b] || payloadOf(b) == "" {
			continue
		}
		empty := ""
		if b.Type == traffic.BlockThinking && b.Text == "" {
			empty = " (its thinking text is empty, as with display \"omitted\", but it is signed and must still be echoed)"
		}
		switch {
		case echoed:
			r.AddSeverity(sev, i, "request."+q.req.Messages[k].Path, "messages[%d] echoes the response of interaction %d but leaves out its %s block content[%d]%s",
				k, m, b.Type, p, empty)
			return
		case lastEcho > k:
			r.AddSeverity(q.silent, i, "request."+q.req.Messages[k].Path, "messages[%d] echoes the response of interaction %d without its %s block content[%d], while messages[%d] echoes later thinking: a block between others was left out%s (%s)",
				k, m, b.Type, p, lastEcho, empty, silentWhy(q))
			return
		}
	}
}

// interleaved reports whether the interleaved-thinking beta is on, by
// header or (Bedrock) by the body's anthropic_beta list.
func interleaved(ex *traffic.Exchange) bool {
	for _, v := range ex.RequestHeader.Values(http.CanonicalHeaderKey("anthropic-beta")) {
		if strings.Contains(v, "interleaved-thinking-") {
			return true
		}
	}
	if ex.Request != nil {
		if raw, ok := ex.Request.Extra["anthropic_beta"]; ok && strings.Contains(string(raw), "interleaved-thinking-") {
			return true
		}
	}
	return false
}

// judgeThinkingConfig judges each distinct configuration once, at the first
// request that sends it: a conversation resends it every turn.
func judgeThinkingConfig(tr *check.Traffic, r *check.Reporter) {
	a := analyze(tr)
	judged := map[string]bool{}
	a.eachAll(func(i int, q *request) {
		th := q.req.Thinking
		if th == nil {
			return
		}
		key := fmt.Sprintf("%s|%d|%v|%s", q.req.Model, q.req.MaxTokens, interleaved(q.ex), compact(th.Raw))
		if judged[key] {
			return
		}
		judged[key] = true
		switch th.Type {
		case "adaptive", "disabled":
			return
		case "enabled":
		default:
			r.Add(i, "request.thinking.type", "thinking.type %q is none of enabled, adaptive, disabled", th.Type)
			return
		}
		if major, minor, ok := modelVersion(q.req.Model); ok && (major > 4 || major == 4 && minor >= 6) {
			state := "deprecated"
			if major > 4 || minor >= 7 {
				state = "rejected"
			}
			r.Add(i, "request.thinking.type", "manual thinking (type enabled) is %s on %s; use {\"type\":\"adaptive\"}", state, q.req.Model)
		}
		switch {
		case th.BudgetTokens == 0:
			r.Add(i, "request.thinking.budget_tokens", "thinking is enabled without budget_tokens")
		case th.BudgetTokens < 1024:
			r.Add(i, "request.thinking.budget_tokens", "budget_tokens %d is below the minimum of 1024", th.BudgetTokens)
		case q.req.MaxTokens > 0 && th.BudgetTokens >= q.req.MaxTokens && !interleaved(q.ex):
			r.Add(i, "request.thinking.budget_tokens", "budget_tokens %d is not below max_tokens %d (allowed only with the interleaved-thinking beta)", th.BudgetTokens, q.req.MaxTokens)
		}
	})
}
