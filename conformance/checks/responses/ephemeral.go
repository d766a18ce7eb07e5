package responses

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// The ephemeral checks judge content sent once and then gone from the
// history (threading finds it: see histAnalysis.eph) against what the
// provider ties to it.
var ephemeralChecks = []*check.Check{
	&check.Check{
		ID: "OAI-EPH-001", Title: "Responses ephemeral content only in stateless mode, never after reasoning",
		Severity: check.SeverityInfo, Scope: "R,C", Wire: traffic.WireResponses, Since: "0.1.0",
		Law:           "Ephemeral input items are sent only with store:false and without previous_response_id chaining, and never between a reasoning item and the item that follows it.",
		ProviderError: "Item 'rs_…' of type 'reasoning' was provided without its required following item.",
		Troubleshoot: "With store:true (the default) or previous_response_id the server persists everything in input and replays it on chained requests, so content meant for one request is not ephemeral at all (info). " +
			"An ephemeral item placed right after a reasoning item separates the reasoning from the item it produced, which the API rejects (reported as error). Send ephemeral items after the last function_call_output, in stateless mode.",
		Judge: judgeEphemeralOnlyStateless,
	},
}

// judgeEphemeralOnlyStateless checks each Responses request's ephemeral items: after a
// reasoning item (error) and in stored or chained conversations (info).
func judgeEphemeralOnlyStateless(tr *check.Traffic, r *check.Reporter) {
	a := thread.Of(tr)
	chainedTo := map[string]bool{}
	for _, hr := range a.Requests() {
		if hr.Chained {
			chainedTo[hr.Req.PreviousResponseID] = true
		}
	}
	for i, hr := range a.Requests() {
		if hr.Wire != traffic.WireResponses || len(a.Eph[i]) == 0 {
			continue
		}
		first := ""
		done := map[int32]bool{}
		for _, e := range a.Eph[i] {
			u := hr.Units[e.Unit]
			m := &hr.Msgs[u.Msg]
			if first == "" {
				first = m.Path
			}
			if done[u.Msg] || u.Msg == 0 || !isReasoningItem(&hr.Msgs[u.Msg-1]) {
				continue
			}
			done[u.Msg] = true
			r.AddSeverity(check.SeverityError, tr.Exchanges[i].Index, "request."+m.Path,
				"ephemeral item (gone from the next request) sits right after reasoning item %s, separating it from the item it produced",
				hr.Msgs[u.Msg-1].Path)
		}
		var why []string
		if hr.Req.Store == nil {
			why = append(why, "store is true (the default)")
		} else if *hr.Req.Store {
			why = append(why, "store is true")
		}
		if hr.Chained {
			why = append(why, "the request is chained by previous_response_id "+hr.Req.PreviousResponseID)
		}
		if hr.RespID != "" && chainedTo[hr.RespID] {
			why = append(why, "a later request chains to its response "+hr.RespID)
		}
		if len(why) > 0 {
			r.Add(tr.Exchanges[i].Index, "request."+first,
				"ephemeral content (gone from the next request) is persisted server-side: %s", strings.Join(why, ", "))
		}
	}
}

func isReasoningItem(m *traffic.Message) bool {
	if m.WireType == "reasoning" {
		return true
	}
	return len(m.Blocks) == 1 && m.Blocks[0].Type == traffic.BlockReasoning
}
