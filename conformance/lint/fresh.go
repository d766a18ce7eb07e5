package lint

import (
	"github.com/llmtck/llmtck/conformance/internal/thread"
	"github.com/llmtck/llmtck/traffic"
)

// seen is what the history's requests carried: the fingerprint of every
// content block of their histories (the messages after the leading system
// ones, as thread.Threads reads them). It tells a fresh request — one an
// eval harness sends, a new conversation that owes nothing to the calls
// before — from one that continues, edits or echoes them, without walking
// the history.
type seen struct {
	blocks map[uint64]struct{}
	// bare counts history requests whose history is empty: any request of
	// the same head extends those (an empty prefix), so none is fresh.
	bare int
}

// add takes in the blocks of ex's request from message from on (the
// messages before were taken in with the call it extends), looking their
// fingerprints up in known.
func (s *seen) add(ex *traffic.Exchange, from int, known *thread.Prints) {
	req := ex.Request
	if req == nil {
		return
	}
	if s.blocks == nil {
		s.blocks = map[uint64]struct{}{}
	}
	lead := thread.Lead(req)
	if lead == len(req.Messages) {
		s.bare++
	}
	h := thread.NewHasherWith(ex.Wire, known)
	for m := max(lead, from); m < len(req.Messages); m++ {
		for b := range req.Messages[m].Blocks {
			s.blocks[h.Learn(&req.Messages[m].Blocks[b])] = struct{}{}
		}
	}
}

// fresh reports whether next can be judged alone: its request carries
// nothing a provider produced (only user, system and developer messages
// with text and media blocks: no tool call or result, no thinking,
// signature, reasoning or item id, no previous_response_id), and none of
// its history's blocks was in an earlier request's history, so no earlier
// call is its origin, and it continues no earlier conversation (a thread
// is joined by keeping at least one block of it). The fingerprints of its
// blocks are looked up in known, and kept there; known may be nil.
func (s *seen) fresh(next *traffic.Exchange, known *thread.Prints) bool {
	req := next.Request
	if req == nil || req.PreviousResponseID != "" || s.bare > 0 {
		return false
	}
	lead := thread.Lead(req)
	if lead == len(req.Messages) {
		return false // an empty history extends every bare one of its head
	}
	h := thread.NewHasherWith(next.Wire, known)
	for m := range req.Messages {
		msg := &req.Messages[m]
		switch msg.Role {
		case traffic.RoleUser, traffic.RoleSystem, traffic.RoleDeveloper:
		default:
			return false
		}
		for b := range msg.Blocks {
			blk := &msg.Blocks[b]
			if !authored(blk) {
				return false
			}
			if m >= lead {
				if _, ok := s.blocks[h.Block(blk)]; ok {
					return false
				}
			}
		}
	}
	return true
}

// authored reports whether b is content a client writes itself: text or
// media, carrying no id, signature or payload a response produced.
func authored(b *traffic.Block) bool {
	switch b.Type {
	case traffic.BlockText, traffic.BlockImage, traffic.BlockDocument:
	default:
		return false
	}
	return !b.Thought && len(b.Signature) == 0 && len(b.Data) == 0 && len(b.EncryptedContent) == 0 &&
		b.ID == "" && b.ItemID == "" && b.ToolCallID == "" && len(b.Content) == 0
}
