package proxy

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/reqmatch"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// entry is one recorded interaction that replay can serve.
type entry struct {
	index int // position in the cassette
	// final is its place in the file Close leaves, once known, when it was
	// recorded in this session (auto mode): its replays log it.
	final  *placement
	in     *cassette.Interaction
	method string
	target string
	wire   traffic.Wire

	toolsOnce sync.Once
	tools     int

	answerOnce sync.Once
	answer     answer
}

// answer is what replay sends for a recorded response, worked out once per
// interaction: a replay server answers the same few requests again and
// again.
type answer struct {
	stream    bool
	status    string          // the status line
	header    http.Header     // the recorded header as replay sends it, shared: a caller that changes it copies it
	truncated string          // why the recorded body broke off; "" when it did not
	failure   string          // why no response came at all (status 0)
	chunks    [][]byte        // the body cut into events
	at        []time.Duration // when each piece is due
	end       time.Duration   // when the body ended after the headers; -1 when unknown
}

// reply returns what replay sends for e.
func (e *entry) reply() *answer {
	e.answerOnce.Do(func() {
		rec := &e.in.Response
		a := &e.answer
		a.stream = isStream(rec.Header, rec.Body)
		a.status = rec.StatusText
		if a.status == "" || !strings.HasPrefix(a.status, strconv.Itoa(rec.Status)) {
			a.status = fmt.Sprintf("%d %s", rec.Status, http.StatusText(rec.Status))
		}
		a.header = served(rec.Header, rec.Body)
		a.truncated, a.failure = rec.Header.Get(headerTruncated), rec.Header.Get(headerError)
		a.chunks, a.at, a.end = split(rec, a.stream)
	})
	return &e.answer
}

// toolCalls counts the tool calls in the recorded response, once. Only the
// response is decoded: a growing conversation's request, the larger by
// far, is not read for a number in the log.
func (e *entry) toolCalls() int {
	e.toolsOnce.Do(func() {
		rec := &e.in.Response
		ex := traffic.Exchange{Index: e.index, Method: e.method, URL: e.in.Request.URL, Wire: e.wire}
		providers.AddResponse(&ex, providers.Call{
			Method: e.method, URL: e.in.Request.URL, RequestBody: e.in.Request.Body,
			Status: rec.Status, ResponseHeader: rec.Header, ResponseBody: rec.Body,
		})
		e.tools = countTools(ex.Response)
	})
	return e.tools
}

// group holds the recorded interactions that answer the same request, in
// recorded order; next is the one to serve next.
type group struct {
	entries []*entry
	next    int
}

// take serves the group's interactions in recorded order and starts over
// when all have been served, so a harness that runs its tests twice against
// one replay server gets the same answers twice.
func (g *group) take() *entry {
	e := g.entries[g.next%len(g.entries)]
	g.next++
	return e
}

// player matches incoming requests to recorded ones: same method, same path
// and query, and the same body once canonical (key order, whitespace and the
// wire's volatile fields ignored). Credentials in the URL are compared
// masked, as they were recorded.
type player struct {
	m reqmatch.Spec
	// mask is the redaction of URLs: a recorded URL is matched as the
	// incoming one is, with its credentials masked (another tool may have
	// recorded key=test-api-key).
	mask    func(string) string
	mu      sync.Mutex
	entries []*entry
	byKey   map[string]*group // canonical key
	byRaw   map[string]*group // exact keys seen before: a repeated request skips canonicalising
}

func newPlayer(m cassette.Matcher, mask func(string) string, interactions []*cassette.Interaction) *player {
	p := &player{m: reqmatch.Spec(m), mask: mask, byKey: map[string]*group{}, byRaw: map[string]*group{}}
	for i, in := range interactions {
		p.add(i, in, nil)
	}
	return p
}

// add makes a recorded interaction servable (auto mode adds what it records).
func (p *player) add(index int, in *cassette.Interaction, final *placement) {
	if in.Request.Method == "" {
		return // response-only fixtures have no request to match
	}
	e := &entry{
		index:  index,
		final:  final,
		in:     in,
		method: in.Request.Method,
		target: reqmatch.Target(p.mask(in.Request.URL)),
		wire:   providers.Detect(in.Request.URL, in.Request.Body, nil),
	}
	key := string(p.m.Key(nil, e.method, e.target, in.Request.Header, string(e.wire), in.Request.Body))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.entries = append(p.entries, e)
	g := p.byKey[key]
	if g == nil {
		g = &group{}
		p.byKey[key] = g
	}
	g.entries = append(g.entries, e)
}

// keyBufs hold match keys while they are looked up, so matching allocates
// nothing on the usual path.
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// match returns the recorded interaction that answers the request, or nil.
func (p *player) match(method, target string, header http.Header, wire traffic.Wire, body []byte) *entry {
	raw := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(raw)
	*raw = p.m.RawKey((*raw)[:0], method, target, header, body)
	p.mu.Lock()
	g := p.byRaw[string(*raw)]
	if g != nil {
		defer p.mu.Unlock()
		return g.take()
	}
	p.mu.Unlock()

	canon := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(canon)
	*canon = p.m.Key((*canon)[:0], method, target, header, string(wire), body)
	p.mu.Lock()
	defer p.mu.Unlock()
	g = p.byKey[string(*canon)]
	if g == nil {
		return nil
	}
	if len(p.byRaw) < 8*len(p.entries)+64 {
		p.byRaw[string(*raw)] = g // bounded: volatile fields may differ on every call
	}
	return g.take()
}

// nearest explains a miss: the recorded request closest to the incoming one
// and how they differ.
func (p *player) nearest(method, target string, wire traffic.Wire, body []byte) *reqmatch.Miss {
	p.mu.Lock()
	recorded := make([]reqmatch.Recorded, len(p.entries))
	for i, e := range p.entries {
		recorded[i] = reqmatch.Recorded{Index: e.index, Method: e.method, Target: e.target, Wire: string(e.wire), Body: e.in.Request.Body}
	}
	p.mu.Unlock()
	return reqmatch.Nearest(recorded, method, target, string(wire), body)
}
