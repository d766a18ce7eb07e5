package responses

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/internal/diff"
	"github.com/llmtck/llmtck/conformance/internal/origin"
	"github.com/llmtck/llmtck/internal/rawjson"
	rspwire "github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/traffic"
)

// judgeReasoningFollowed (OAI-RSN-001): a reasoning item the cassette produced must
// be followed by the very item that followed it in the output, recognised
// by its item id, as the API does. A reasoning item of unknown origin
// (client-authored history, another recording) is judged by shape only: it
// must be followed by something the model produced, not by the end of the
// input or by a user, system, developer or tool item.
func judgeReasoningFollowed(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		in := req.Messages
		for i := range in {
			rb := reasoningOf(&in[i])
			if rb == nil {
				continue
			}
			var next *traffic.Message
			if i+1 < len(in) {
				next = &in[i+1]
			}
			src := idx.item(rb.ItemID)
			if rb.ItemID == "" || src == nil || src.next == nil {
				switch {
				case next == nil:
					r.Add(ex.Index, "request."+in[i].Path, "reasoning item %s at %s is the last input item; it must be followed by the message or call it produced",
						rb.ItemID, in[i].Path)
				case next.Role != traffic.RoleAssistant && next.Role != "":
					r.Add(ex.Index, "request."+in[i].Path, "reasoning item %s at %s is followed by %s at %s, not by the message or call it produced",
						rb.ItemID, in[i].Path, describe(next), next.Path)
				}
				continue
			}
			want := src.next
			wantID := origin.ItemID(want)
			if next != nil && origin.ItemID(next) == wantID {
				continue
			}
			if next != nil && callWithoutID(next, want) {
				// A function call without an item id where the reasoning
				// produced one: answered 200 whatever its call_id (see
				// callWithoutID).
				continue
			}
			if next == nil {
				r.Add(ex.Index, "request."+in[i].Path, "reasoning item %s at %s is the last input item, but interaction %d produced it followed by %s (%s)",
					rb.ItemID, in[i].Path, src.exchange, describe(want), want.Path)
				continue
			}
			f := r.Add(ex.Index, "request."+in[i].Path, "reasoning item %s at %s is followed by %s at %s instead of %s that interaction %d produced right after it (%s)",
				rb.ItemID, in[i].Path, describe(next), next.Path, describe(want), src.exchange, want.Path)
			f.Diff = diff.JSON(viewOf(want), viewOf(next))
		}
	})
}

// callWithoutID reports whether item is a function call sent without an
// item id where want, what the reasoning produced, is a function call. The
// recordings show the API matching the follower by its item id when it has
// one and by its type when it has none: a function call without id was
// answered 200 with the produced call_id (rig's xAI recording) and with the
// produced fc_ id as its call_id (OpenAI, issue 44), while the one 400 (an
// edited history) followed the reasoning with an assistant message that had
// neither id nor type. docs/provider-rules.md R1.
func callWithoutID(item, want *traffic.Message) bool {
	return callOf(item) != nil && callOf(want) != nil && origin.ItemID(item) == ""
}

// judgeCallWithReasoning (OAI-RSN-002): a function_call echoed with the fc_ id
// of a call the cassette produced after a reasoning item needs that
// reasoning item in the same input. Requests chained with
// previous_response_id are skipped: the server has the reasoning.
func judgeCallWithReasoning(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		if req.PreviousResponseID != "" {
			return
		}
		present := map[string]bool{} // reasoning ids sent whole or by reference
		for i := range req.Messages {
			if m := &req.Messages[i]; m.WireType == "reasoning" || m.WireType == "item_reference" {
				present[origin.ItemID(m)] = true
			}
		}
		for i := range req.Messages {
			m := &req.Messages[i]
			b := callOf(m)
			if b == nil || b.ItemID == "" {
				continue
			}
			src := idx.item(b.ItemID)
			if src == nil || src.reasoning == "" || present[src.reasoning] {
				continue
			}
			r.Add(ex.Index, "request."+m.Path, "function_call %s (call_id %s) at %s is sent without reasoning item %s, which interaction %d produced before it; send %s before the call or drop the call's id",
				b.ItemID, b.ID, m.Path, src.reasoning, src.exchange, src.reasoning)
		}
	})
}

// includeEncrypted is the include value that asks for reasoning payloads.
const includeEncrypted = "reasoning.encrypted_content"

// judgeStatelessEncrypted (OAI-RSN-003): with store:false the server keeps
// nothing, so reasoning travels whole; a missing include is a warning.
func judgeStatelessEncrypted(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, _ index) {
		if req.Store == nil || *req.Store {
			return
		}
		usesReasoning := req.Thinking != nil
		for i := range req.Messages {
			m := &req.Messages[i]
			rb := reasoningOf(m)
			if rb == nil {
				continue
			}
			usesReasoning = true
			if ec := rb.EncryptedContent; len(ec) == 0 || string(ec) == `""` || string(ec) == "null" {
				r.Add(ex.Index, "request."+m.Path, "reasoning item %s at %s has no encrypted_content, but the request sets store:false, so the server has nothing to look the id up in",
					rb.ItemID, m.Path)
			}
		}
		if ex.Response != nil {
			for k := range ex.Response.Output {
				usesReasoning = usesReasoning || reasoningOf(&ex.Response.Output[k]) != nil
			}
		}
		if usesReasoning && !slices.Contains(req.Include, includeEncrypted) {
			r.AddSeverity(check.SeverityWarning, ex.Index, "request.include", "store:false with reasoning but include does not ask for %q; reasoning items may come back without the payload the next stateless turn must replay",
				includeEncrypted)
		}
	})
}

// judgeEncryptedUnchanged (OAI-RSN-004): echoed encrypted_content is compared
// with the item that produced it, wherever in the cassette that was.
// Providers decode the JSON string, so equal bytes are equal and differing
// bytes are compared decoded; the diff shows the first differing byte.
func judgeEncryptedUnchanged(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		sent := routeOf(ex)
		for i := range req.Messages {
			m := &req.Messages[i]
			rb := reasoningOf(m)
			if rb == nil || len(rb.EncryptedContent) == 0 {
				continue
			}
			src, how := idx.item(rb.ItemID), ""
			if rb.ItemID == "" {
				src, how = idx.reasoningWithoutID(req.Messages, i)
			}
			if src == nil {
				continue // not produced in this cassette: nothing to compare with
			}
			ob := reasoningOf(src.item)
			if ob == nil {
				continue
			}
			name := rb.ItemID
			if name == "" {
				name = fmt.Sprintf("at %s, sent without an id (matched to %s of interaction %d %s),", m.Path, origin.ItemID(src.item), src.exchange, how)
			}
			loc := "request." + m.Path + ".encrypted_content"
			switch {
			case src.partial:
				r.Add(ex.Index, loc, "reasoning item %s echoes an item whose stream in interaction %d never sent response.output_item.done; its encrypted_content is incomplete",
					name, src.exchange)
			case len(ob.EncryptedContent) == 0:
				r.Add(ex.Index, loc, "reasoning item %s carries encrypted_content (%d bytes), but interaction %d produced it without one (%s); the payload was not issued with this item",
					name, len(rb.EncryptedContent), src.exchange, src.item.Path)
			case !bytes.Equal(rb.EncryptedContent, ob.EncryptedContent) && !sameString(rb.EncryptedContent, ob.EncryptedContent):
				want, _ := rawjson.String(ob.EncryptedContent)
				got, _ := rawjson.String(rb.EncryptedContent)
				f := r.Add(ex.Index, loc, "encrypted_content of reasoning item %s differs from the one interaction %d produced (response %s)",
					name, src.exchange, src.item.Path)
				f.Diff = diff.Bytes([]byte(want), []byte(got))
			case src.route.org != "" && sent.org != "" && src.route.org != sent.org:
				r.Add(ex.Index, loc, "encrypted_content of reasoning item %s was issued to organization %q (interaction %d) but is sent to organization %q",
					name, src.route.org, src.exchange, sent.org)
			case src.route.host != "" && sent.host != "" && src.route.host != sent.host:
				r.Add(ex.Index, loc, "encrypted_content of reasoning item %s was issued by %s (interaction %d) but is sent to %s",
					name, src.route.host, src.exchange, sent.host)
			}
		}
	})
}

// sameString reports whether two JSON string tokens decode equal.
func sameString(a, b []byte) bool {
	x, okA := rawjson.String(a)
	y, okB := rawjson.String(b)
	return okA && okB && x == y
}

// callRoute is where a call went: the organization the response names and
// the URL's host. An encrypted payload is only valid where it was issued.
type callRoute struct{ org, host string }

func routeOf(ex *traffic.Exchange) callRoute {
	return callRoute{org: ex.ResponseHeader.Get("Openai-Organization"), host: ex.Host()}
}

// judgeReasoningModel (OAI-RSN-005): reasoning items go only to a model that
// reasons (error, once per request), and encrypted reasoning produced by
// one model family is not sent to another (warning, once per item).
func judgeReasoningModel(tr *check.Traffic, r *check.Reporter) {
	walk(tr, func(ex *traffic.Exchange, req *traffic.Request, idx index) {
		reasons := rspwire.Reasons(req.Model)
		for i := range req.Messages {
			m := &req.Messages[i]
			rb := reasoningOf(m)
			if rb == nil {
				continue
			}
			loc := "request." + m.Path
			if !reasons {
				r.Add(ex.Index, loc, "reasoning item %s at %s goes to %s, a model that does not reason: the API refuses reasoning input items for it",
					rb.ItemID, m.Path, req.Model)
				return
			}
			src := idx.item(rb.ItemID)
			if src == nil || len(rb.EncryptedContent) == 0 || src.model == "" || req.Model == "" {
				continue
			}
			if from, to := rspwire.Family(src.model), rspwire.Family(req.Model); from != to {
				r.AddSeverity(check.SeverityWarning, ex.Index, loc+".encrypted_content",
					"reasoning item %s was produced by %s (interaction %d) and is sent to %s, another model family: its encrypted_content may not decrypt there",
					rb.ItemID, src.model, src.exchange, req.Model)
			}
		}
	})
}
