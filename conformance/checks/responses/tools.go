package responses

import (
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// judgeCallsAnswered (OAI-TOOL-010): every function_call in input, and
// every call of a recorded response named by previous_response_id, has an
// output with its call_id somewhere in the input. Where the output sits is
// OAI-CANCEL-001's concern; an output before its call is OAI-TOOL-011's.
func judgeCallsAnswered(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		answered := map[string]bool{}
		for i := range req.Messages {
			if o := outputOf(&req.Messages[i]); o != nil {
				answered[o.ToolCallID] = true
			}
		}
		for i := range req.Messages {
			m := &req.Messages[i]
			if b := callOf(m); b != nil && b.ID != "" && !answered[b.ID] {
				r.Add(ex.Index, "request."+m.Path, "function_call %s (%s) at %s has no function_call_output with its call_id in the input",
					b.ID, b.Name, m.Path)
			}
		}
		calls, _ := idx.response(req.PreviousResponseID)
		for _, b := range calls {
			if b.ID != "" && !answered[b.ID] {
				r.Add(ex.Index, "request.previous_response_id", "function call %s (%s) of response %s, named by previous_response_id, has no function_call_output in the input",
					b.ID, b.Name, req.PreviousResponseID)
			}
		}
	})
}

// judgeOutputsMatched (OAI-TOOL-011): every function_call_output answers
// a function_call sent before it, or — when the request is chained with
// previous_response_id — a call a recorded response produced. When the
// chain or an item_reference points at something the cassette does not
// hold, orphans cannot be told from references and are not reported.
func judgeOutputsMatched(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		unknown := false
		if prev := req.PreviousResponseID; prev != "" {
			_, recorded := idx.response(prev)
			unknown = !recorded
		}
		callAt := map[string]int{}
		for i := range req.Messages {
			m := &req.Messages[i]
			if b := callOf(m); b != nil {
				if _, dup := callAt[b.ID]; !dup {
					callAt[b.ID] = i
				}
			}
			if m.WireType == "item_reference" {
				if o := idx.item(origin.ItemID(m)); o != nil && callOf(o.item) != nil {
					callAt[callOf(o.item).ID] = i
				} else {
					unknown = true
				}
			}
		}
		if unknown {
			return
		}
		for i := range req.Messages {
			m := &req.Messages[i]
			o := outputOf(m)
			if o == nil {
				continue
			}
			j, inInput := callAt[o.ToolCallID]
			switch {
			case inInput && j < i:
			case req.PreviousResponseID != "" && idx.call(o.ToolCallID) != nil:
			case inInput:
				r.Add(ex.Index, "request."+m.Path, "function_call_output at %s answers call_id %s, whose function_call comes later, at %s",
					m.Path, o.ToolCallID, req.Messages[j].Path)
			case req.PreviousResponseID != "":
				r.Add(ex.Index, "request."+m.Path, "function_call_output at %s answers call_id %s, but no function_call with that call_id is in the input or in response %s",
					m.Path, o.ToolCallID, req.PreviousResponseID)
			default:
				r.Add(ex.Index, "request."+m.Path, "function_call_output at %s answers call_id %s, but no function_call with that call_id is in the input",
					m.Path, o.ToolCallID)
			}
		}
	})
}

// prefix is the id prefix the API expects of an item kind, or "".
// (A switch, not a map: it is asked for every item of every request.)
func prefix(kind string) string {
	switch kind {
	case "reasoning":
		return "rs_"
	case "function_call":
		return "fc_"
	case "message":
		return "msg_"
	}
	return ""
}

// role reports whether an input message may have role r.
func role(r traffic.Role) bool {
	switch r {
	case traffic.RoleUser, traffic.RoleAssistant, traffic.RoleSystem, traffic.RoleDeveloper:
		return true
	}
	return false
}

// judgeIDsAndRoles (OAI-TOOL-012): item ids keep their prefixes and no
// input message has a role the API does not take (tool above all).
func judgeIDsAndRoles(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, _ index) {
		for i := range req.Messages {
			m := &req.Messages[i]
			kind := m.WireType
			if isMessage(m) {
				kind = "message"
				switch {
				case m.Role == traffic.RoleTool:
					r.Add(ex.Index, "request."+m.Path+".role", "%s is a message with role \"tool\"; Responses input takes a function_call_output item with the call's call_id instead",
						m.Path)
				case m.Role != "" && !role(m.Role):
					r.Add(ex.Index, "request."+m.Path+".role", "%s has role %q; input messages take user, assistant, system or developer",
						m.Path, m.Role)
				}
			}
			id, want := origin.ItemID(m), prefix(kind)
			if id != "" && want != "" && !strings.HasPrefix(id, want) {
				r.Add(ex.Index, "request."+m.Path+".id", "%s at %s has id %q; %s ids begin with %q (keep the id the server sent, or leave it out)",
					kind, m.Path, id, kind, want)
			}
		}
	})
}

// judgeCancelledClosed (OAI-CANCEL-001, info): each output comes right after its
// call — only other calls, outputs and reasoning of the same step between —
// and is not empty. Each call is reported once, where first seen, since a
// growing history repeats it in every later request.
func judgeCancelledClosed(tr *check.Traffic, r *check.Reporter) {
	reported := map[string]bool{}
	walkAll(tr, func(ex *traffic.Exchange, req *traffic.Request, _ index) {
		outAt := map[string]int{}
		for i := range req.Messages {
			if o := outputOf(&req.Messages[i]); o != nil {
				if _, dup := outAt[o.ToolCallID]; !dup {
					outAt[o.ToolCallID] = i
				}
			}
		}
		for k := range req.Messages {
			b := callOf(&req.Messages[k])
			if b == nil || b.ID == "" || reported[b.ID] {
				continue
			}
			j, ok := outAt[b.ID]
			if !ok || j < k {
				continue // OAI-TOOL-010 and OAI-TOOL-011 own these
			}
			out := &req.Messages[j]
			if between := stepBreak(req.Messages[k+1 : j]); between != nil {
				reported[b.ID] = true
				r.Add(ex.Index, "request."+out.Path, "the output of call %s (%s at %s) comes at %s, after %s at %s; put each output right after its call",
					b.ID, b.Name, req.Messages[k].Path, out.Path, describe(between), between.Path)
				continue
			}
			if emptyOutput(outputOf(out).ResultRaw) {
				reported[b.ID] = true
				r.Add(ex.Index, "request."+out.Path+".output", "the output of call %s (%s) is empty; a cancelled, denied or failed call should say so (e.g. \"aborted\")",
					b.ID, b.Name)
			}
		}
	})
}

// stepBreak returns the first item that does not belong to a step's
// calls and outputs (function, custom and hosted tool calls, their outputs,
// reasoning), or nil.
func stepBreak(items []traffic.Message) *traffic.Message {
	for i := range items {
		typ := items[i].WireType
		if typ != "reasoning" && !strings.HasSuffix(typ, "_call") && !strings.HasSuffix(typ, "_output") {
			return &items[i]
		}
	}
	return nil
}

// emptyOutput reports whether an output token says nothing: absent,
// null, "", blank, or an empty list of parts.
func emptyOutput(raw []byte) bool {
	switch rawjson.Kind(raw) {
	case "", "null":
		return true
	case "string":
		s, _ := rawjson.String(raw)
		return strings.TrimSpace(s) == ""
	case "array":
		items, err := rawjson.Array(raw)
		return err == nil && len(items) == 0
	}
	return false
}
