package retry

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// judgeCarried finds, in the request after each failed call of a wire,
// assistant content that the failed answer produced and the failed request
// did not already hold.
func judgeCarried(tr *check.Traffic, r *check.Reporter) {
	last := map[traffic.Wire]int{} // the latest call of each wire
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		if ex.Request == nil {
			continue
		}
		prev, ok := last[ex.Wire]
		last[ex.Wire] = i
		if !ok || i < tr.WantedFrom() || !failed(&tr.Exchanges[prev]) {
			continue
		}
		fx := &tr.Exchanges[prev]
		if fx.Response == nil {
			continue
		}
		produced := keys(fx.Response.Output)
		held := map[string]bool{}
		for _, m := range fx.Request.Messages {
			for _, k := range blockKeys(m) {
				held[k] = true
			}
		}
		for mi, m := range ex.Request.Messages {
			if m.Role != traffic.RoleAssistant {
				continue
			}
			for bi, b := range m.Blocks {
				k := blockKey(b)
				if k == "" || held[k] || !produced[k] {
					continue
				}
				r.Add(ex.Index, fmt.Sprintf("request.messages[%d].content[%d]", mi, bi),
					"the retry of failed call %d carries %s that the failed answer produced before it failed (HTTP %d%s)", fx.Index, describe(b), fx.Status, errorOf(fx))
			}
		}
	}
}

func errorOf(ex *traffic.Exchange) string {
	if ex.Response != nil && ex.Response.Error != nil {
		return ", " + ex.Response.Error.Type + ": " + ex.Response.Error.Message
	}
	return ""
}

func describe(b traffic.Block) string {
	switch b.Type {
	case traffic.BlockText:
		return fmt.Sprintf("text %q", excerpt(b.Text))
	case traffic.BlockToolCall:
		return "tool call " + b.ID + " (" + b.Name + ")"
	}
	return string(b.Type) + " content"
}

func excerpt(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func keys(msgs []traffic.Message) map[string]bool {
	out := map[string]bool{}
	for _, m := range msgs {
		for _, k := range blockKeys(m) {
			out[k] = true
		}
	}
	return out
}

func blockKeys(m traffic.Message) []string {
	var out []string
	for _, b := range m.Blocks {
		if k := blockKey(b); k != "" {
			out = append(out, k)
		}
	}
	return out
}

// blockKey is what identifies a block's content across calls: its text,
// its tool call id, its thinking text; "" for what identifies nothing.
func blockKey(b traffic.Block) string {
	switch b.Type {
	case traffic.BlockText:
		if strings.TrimSpace(b.Text) != "" {
			return "text\x00" + b.Text
		}
	case traffic.BlockToolCall:
		if b.ID != "" {
			return "call\x00" + b.ID
		}
	case traffic.BlockThinking, traffic.BlockReasoning:
		if b.Text != "" {
			return "thinking\x00" + b.Text
		}
	}
	return ""
}

// judgeRuns counts, per tool and arguments, the calls accepted answers
// made and the executions the simulator recorded; an execution past the
// calls is reported on the request that records it.
func judgeRuns(tr *check.Traffic, r *check.Reporter) {
	if tr.Latest {
		return // a whole recording is needed: calls and runs are counted from its start
	}
	calls := map[string][]string{}
	runs := map[string]int{}
	for i := range tr.Exchanges {
		ex := &tr.Exchanges[i]
		for _, v := range ex.RequestHeader.Values(ToolRunsHeader) {
			name, args, _ := strings.Cut(v, " ")
			k := name + "\x00" + args
			runs[k]++
			if ids := calls[k]; len(ids) > 0 && runs[k] > len(ids) && i >= tr.From {
				r.Add(ex.Index, "tool "+name,
					"tool %s ran %d times with arguments %s, for %d call(s) the provider made (%s): a retry ran it again", name, runs[k], args, len(ids), strings.Join(ids, ", "))
			}
		}
		if ex.Accepted() && ex.Response != nil && ex.Response.Error == nil && (ex.Response.Stream == nil || ex.Response.Stream.Complete) {
			for _, m := range ex.Response.Output {
				for _, b := range m.Blocks {
					if b.Type == traffic.BlockToolCall {
						k := b.Name + "\x00" + CompactArgs(b.Input)
						calls[k] = append(calls[k], b.ID)
					}
				}
			}
		}
	}
}

// judgeWait compares the gap the simulator measured before each retry with
// the wait the failed answer before it asked for.
func judgeWait(tr *check.Traffic, r *check.Reporter) {
	for i := tr.WantedFrom(); i < len(tr.Exchanges); i++ {
		ex := &tr.Exchanges[i]
		gap, err := strconv.Atoi(ex.RequestHeader.Get(RetryGapHeader))
		if err != nil {
			continue
		}
		for j := i - 1; j >= tr.From && j >= 0; j-- {
			fx := &tr.Exchanges[j]
			if fx.Wire != ex.Wire || fx.Request == nil {
				continue
			}
			if want := Wait(fx.ResponseHeader); failed(fx) && want > 0 && int64(gap) < want.Milliseconds() {
				r.Add(ex.Index, "request", "retried %d ms after failed call %d, whose answer asked for %v (retry-after-ms %q, retry-after %q)",
					gap, fx.Index, want, fx.ResponseHeader.Get("Retry-After-Ms"), fx.ResponseHeader.Get("Retry-After"))
			}
			break
		}
	}
}
