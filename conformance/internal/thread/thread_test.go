package thread

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// TestHeadsIndexedLateThreadAsAtOnce: the threader indexes the latest
// requests' message heads only when a request that continues no thread by
// key needs them. On random conversations that grow, get edited, lose
// their tail, branch and interleave, every request lands in the thread it
// lands in when every request's heads are indexed at once.
func TestHeadsIndexedLateThreadAsAtOnce(t *testing.T) {
	for seed := range uint64(200) {
		tr := randomConversations(rand.New(rand.NewPCG(seed, 7)))
		late, atOnce := threadOf(tr, false), threadOf(tr, true)
		for i := range late {
			if late[i] != atOnce[i] {
				t.Fatalf("seed %d: request %d is in thread %d, in thread %d when heads are indexed at once", seed, i, late[i], atOnce[i])
			}
		}
	}
}

// threadOf threads tr's requests and returns each one's thread, numbered
// in order of creation.
func threadOf(tr *check.Traffic, atOnce bool) []int {
	t := newThreader()
	number := map[*histThread]int{}
	var out []int
	for i := range tr.Exchanges {
		th := t.add(newRequest(tr, &tr.Exchanges[i], i, nil))
		if atOnce {
			t.indexHeads()
		}
		if _, ok := number[th]; !ok {
			number[th] = len(number)
		}
		out = append(out, number[th])
	}
	return out
}

// randomConversations is requests of a few conversations, each request a
// step of one of them: the next turn, an edit of an earlier message, a
// dropped tail, a branch from an earlier turn, or a new conversation that
// opens as another did.
func randomConversations(r *rand.Rand) *check.Traffic {
	word := func() string { return "w" + strconv.Itoa(r.IntN(4)) }
	msg := func(role traffic.Role) traffic.Message {
		blocks := []traffic.Block{{Type: traffic.BlockText, Text: word()}}
		if r.IntN(3) == 0 {
			blocks = append(blocks, traffic.Block{Type: traffic.BlockText, Text: word()})
		}
		return traffic.Message{Role: role, Blocks: blocks}
	}
	var convs [][]traffic.Message
	tr := &check.Traffic{}
	// Many conversations over few words, so more than maxCandidates
	// threads share a head and the order heads were indexed in counts.
	for range 150 {
		if len(convs) == 0 || r.IntN(3) == 0 {
			convs = append(convs, []traffic.Message{msg(traffic.RoleUser)})
		}
		c := r.IntN(len(convs))
		h := convs[c]
		switch step := r.IntN(10); {
		case step < 5: // the next turn
			h = append(h, msg(traffic.RoleAssistant), msg(traffic.RoleUser))
		case step < 7: // an edit
			k := r.IntN(len(h))
			h = append([]traffic.Message(nil), h...)
			h[k] = msg(h[k].Role)
		case step < 8 && len(h) > 2: // the tail dropped
			h = h[:len(h)-2]
		case step < 9: // a branch, as a conversation of its own
			convs = append(convs, append([]traffic.Message(nil), h[:1+r.IntN(len(h))]...))
		default: // another conversation opening as this one did
			convs = append(convs, append([]traffic.Message(nil), h[0]))
		}
		convs[c] = h
		tr.Exchanges = append(tr.Exchanges, traffic.Exchange{
			Index: len(tr.Exchanges), Wire: traffic.WireAnthropic, Status: 200,
			Request: &traffic.Request{Model: "m", Messages: append([]traffic.Message(nil), h...)},
		})
	}
	return tr
}

// TestGrownInPlaceFingerprintsAlike: requests whose messages an
// traffic.Memo shares, as a growing conversation's are, take the
// fingerprints of the request before them and work out the rest in the
// room after them; each request still has exactly the fingerprints it has
// when worked out alone, whatever came after it and in whatever order
// prefix keys are asked for, on random conversations that grow, get
// edited, lose their tail, branch and interleave.
func TestGrownInPlaceFingerprintsAlike(t *testing.T) {
	grown := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 11))
		tr := randomConversations(r)
		throughMemo(t, tr)
		var last *Request
		var reqs []*Request
		for i := range tr.Exchanges {
			req := newRequest(tr, &tr.Exchanges[i], i, last)
			if req.grown != nil {
				grown++
			}
			if r.IntN(2) == 0 {
				req.prefixKeys() // as the threader asks, or later
			}
			reqs = append(reqs, req)
			last = req
		}
		for i, got := range reqs {
			want := newRequest(tr, &tr.Exchanges[i], i, nil)
			keys := []uint64{want.head} // prefixKeys' definition
			for _, fp := range want.mfps {
				keys = append(keys, Mix(keys[len(keys)-1], fp))
			}
			if !slices.Equal(got.Units, want.Units) || !slices.Equal(got.starts, want.starts) || !slices.Equal(got.mfps, want.mfps) || !slices.Equal(got.prefixKeys(), keys) {
				t.Fatalf("seed %d: request %d's fingerprints differ from its own alone", seed, i)
			}
		}
	}
	if grown == 0 {
		t.Fatal("no request grew another's fingerprints: the test proves nothing")
	}
	t.Logf("%d requests grew the fingerprints of the one before", grown)
}

// TestMessagePrintsAreHasherMessages holds what the Anthropic analysis
// takes from threading instead of hashing again: each message's
// fingerprint after the lead is Hasher.Message's on the request's wire,
// whether the request grew the one before it in place or not, and whether
// it opens with system messages or not.
func TestMessagePrintsAreHasherMessages(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 12))
		tr := randomConversations(r)
		for i := range tr.Exchanges {
			if r.IntN(4) == 0 {
				req := tr.Exchanges[i].Request
				system := traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "s"}}}
				req.Messages = append([]traffic.Message{system}, req.Messages...)
			}
		}
		a := Of(tr)
		h := HasherFor(tr, traffic.WireAnthropic)
		for i := range tr.Exchanges {
			req := tr.Exchanges[i].Request
			lead := Lead(req)
			got := a.MessagePrints(i)
			if len(got) != len(req.Messages)-lead {
				t.Fatalf("seed %d: request %d: %d message prints for %d messages after a lead of %d", seed, i, len(got), len(req.Messages), lead)
			}
			for k, fp := range got {
				if want := h.Message(&req.Messages[lead+k]); fp != want {
					t.Fatalf("seed %d: request %d, message %d: print %#x, Hasher.Message %#x", seed, i, lead+k, fp, want)
				}
			}
		}
	}
}

// TestKeptPrintsAlike: a request that a Prints kept the print of (as a
// linter keeps every call it adds) is fingerprinted by a later judgement
// from that print, and gets exactly the fingerprints it has when worked out
// alone, on random conversations decoded through a memo that grow, get
// edited, lose their tail, branch and interleave; judgements read the
// prints while later calls are kept.
func TestKeptPrintsAlike(t *testing.T) {
	taken := 0
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 13))
		tr := randomConversations(r)
		throughMemo(t, tr)
		kept := NewPrints()
		var wg sync.WaitGroup
		errs := make(chan string, len(tr.Exchanges))
		for i := range tr.Exchanges {
			ex := &tr.Exchanges[i]
			if kept.printed(ex.Wire, headOfAlone(ex), ex.Request.Messages) != nil {
				taken++ // Keep goes on from an earlier call's print
			}
			kept.Keep(ex)
			wg.Add(1)
			go func() {
				// A judgement of the next request, beside the next Keep: its
				// traffic begins with ex, whose print it takes, and the next
				// request grows that.
				defer wg.Done()
				end := min(i+2, len(tr.Exchanges))
				judged := &check.Traffic{Exchanges: tr.Exchanges[:end], From: i}
				over := kept.Over(true)
				defer over.Release() // the judgement is over: the next Keep may take the room it borrowed
				Share(judged, over)
				var last *Request
				for j := i; j < end; j++ {
					got := newRequest(judged, &tr.Exchanges[j], j, last)
					want := newRequest(&check.Traffic{Exchanges: tr.Exchanges[:end], From: i}, &tr.Exchanges[j], j, nil)
					if !slices.Equal(got.Units, want.Units) || !slices.Equal(got.starts, want.starts) || !slices.Equal(got.mfps, want.mfps) {
						errs <- fmt.Sprintf("seed %d: request %d's fingerprints, judged after %d, differ from its own alone", seed, j, i)
					}
					last = got
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
	}
	if taken == 0 {
		t.Fatal("no print went on from a kept one: the test proves nothing")
	}
	t.Logf("%d requests' prints went on from a kept one", taken)
}

// TestJudgementBorrowsTheRoomOfAKeptPrint: a judgement whose request
// extends a kept call (the next turn of a growing conversation) grows that
// call's print in place instead of copying it, while no other print has
// its room; once it gives the room back, the call the linter keeps next
// takes it for good, and a later judgement that extends the same call
// otherwise copies.
func TestJudgementBorrowsTheRoomOfAKeptPrint(t *testing.T) {
	var msgs []traffic.Message
	for i := range 64 {
		role := traffic.RoleUser
		if i%2 == 1 {
			role = traffic.RoleAssistant
		}
		msgs = append(msgs, traffic.Message{Role: role, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: "turn " + strconv.Itoa(i)}}})
	}
	call := func(n int) traffic.Exchange { // the conversation's first n messages, shared in memory
		return traffic.Exchange{Wire: traffic.WireAnthropic, Request: &traffic.Request{Model: "m", Messages: msgs[:n]}}
	}
	// A call whose print has room for the next message: how much room
	// appending leaves is the runtime's choice.
	var exs []traffic.Exchange
	var history *Prints
	var kept *keptPrint
	for n := 2; n < len(msgs) && exs == nil; n++ {
		history = NewPrints()
		e := call(n)
		history.Keep(&e)
		kept = history.printed(traffic.WireAnthropic, headOfAlone(&e), e.Request.Messages)
		if cap(kept.units) >= len(kept.units)+2 && cap(kept.starts) > n && cap(kept.mfps) > n {
			exs = []traffic.Exchange{e, call(n + 1)}
		}
	}
	if exs == nil {
		t.Fatal("no kept print had room for the next message: the test proves nothing")
	}
	judge := func(over *Prints) *Request {
		tr := &check.Traffic{Exchanges: exs, From: 0}
		Share(tr, over)
		first := newRequest(tr, &exs[0], 0, nil)
		next := newRequest(tr, &exs[1], 1, first)
		if want := newRequest(&check.Traffic{Exchanges: exs}, &exs[1], 1, nil); !slices.Equal(next.Units, want.Units) || !slices.Equal(next.mfps, want.mfps) || !slices.Equal(next.starts, want.starts) {
			t.Fatal("the judged request's prints differ from its own worked out alone")
		}
		return next
	}
	inPlace := func(units []Unit) bool { return &units[0] == &kept.units[0] }

	first := history.Over(true)
	if next := judge(first); !inPlace(next.Units) {
		t.Error("a judgement of the next turn copied the kept print: it did not borrow its room")
	}
	second := history.Over(true)
	if next := judge(second); inPlace(next.Units) {
		t.Error("a second judgement grew the kept print in place while the first still had its room")
	}
	first.Release()
	second.Release()
	history.Keep(&exs[1])
	if got := history.printed(traffic.WireAnthropic, headOfAlone(&exs[1]), exs[1].Request.Messages); got == kept || !inPlace(got.units) {
		t.Error("the call kept after the judgements copied the print it extends: the room was not given back")
	}
	if next := judge(history.Over(true)); inPlace(next.Units) {
		t.Error("a judgement grew the kept print in place after a later call took its room")
	}
}

// headOfAlone is the head fingerprint newRequest works out for ex.
func headOfAlone(ex *traffic.Exchange) uint64 {
	head, _ := headOf(NewHasher(ex.Wire), ex.Wire, ex.Request)
	return head
}

// throughMemo hands tr's requests their messages as an traffic.Memo hands
// a cassette's: a request that repeats the one before shares its messages
// in memory.
func throughMemo(t *testing.T, tr *check.Traffic) {
	t.Helper()
	memo := traffic.NewMemo()
	for i := range tr.Exchanges {
		req := tr.Exchanges[i].Request
		list := memo.List()
		for k, m := range req.Messages {
			raw := string(m.Role)
			for _, b := range m.Blocks {
				raw += "/" + b.Text
			}
			if err := list.Add(k, []byte(raw), func() (traffic.Message, error) { return m, nil }); err != nil {
				t.Fatal(err)
			}
		}
		req.Messages = list.Messages()
	}
}
