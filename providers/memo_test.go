package providers_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// memoCodec is a codec that decodes a request's messages through a Memo.
type memoCodec interface {
	providers.Codec
	DecodeRequestMemo(body []byte, memo *traffic.Memo) (*traffic.Request, error)
}

// memoWires are the wires whose codec decodes through a Memo: every wire a
// conversation grows on.
var memoWires = []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock}

func memoCodecFor(t testing.TB, w traffic.Wire) memoCodec {
	c, ok := providers.For(w).(memoCodec)
	if !ok {
		t.Fatalf("the %s codec does not decode through a memo", w)
	}
	return c
}

// sameDecoding fails unless decoding body through memo gives what decoding
// it alone gives, the error included.
func sameDecoding(t *testing.T, c memoCodec, memo *traffic.Memo, body []byte) {
	t.Helper()
	want, werr := c.DecodeRequest(body)
	got, err := c.DecodeRequestMemo(body, memo)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("%s %s: error %v through the memo, %v without", c.Wire(), body, err, werr)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s %s decoded through the memo (-alone +memo):\n%s", c.Wire(), body, d)
	}
}

// memoSeeds adds every small request body of the corpus, with its wire.
func memoSeeds(f *testing.F, add func(w uint8, body []byte)) {
	for _, path := range corpus.Files(f) {
		c, err := cassette.Load(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, in := range c.Interactions {
			wire := providers.Detect(in.Request.URL, in.Request.Body, in.Response.Body)
			for i, w := range memoWires {
				if w == wire && len(in.Request.Body) > 0 && corpus.FuzzSeed(in.Request.Body) {
					add(uint8(i), in.Request.Body)
				}
			}
		}
	}
}

// FuzzDecodeRequestMemo: decoding through a memo, which validates a body
// piece by piece and shares the messages it has seen, gives what decoding
// alone gives on every wire, the error included; so does a second decoding
// that finds every message in the memo.
func FuzzDecodeRequestMemo(f *testing.F) {
	memoSeeds(f, func(w uint8, body []byte) { f.Add(w, body) })
	for i := range memoWires {
		w := uint8(i)
		f.Add(w, []byte(`{"model":"m","messages":[{"role":"user","content":"x"},{"role":"user","content":tru}]}`))
		f.Add(w, []byte(`{"model":"m","messages":[{"role":"user","content":"x"} {"role":"user","content":"y"}]}`))
		f.Add(w, []byte(`{"messages":[A],"messages":[]}`))
		f.Add(w, []byte(`{"contents":[{"role":"user","parts":[{"text":"a"}]}],"contents":[]}`))
		f.Add(w, []byte(`{"input":[{"role":"user","content":"\xff"}],"model":"m"}`))
		f.Add(w, []byte("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"\xff\"}]}]}"))
		f.Add(w, []byte(`{"contents":{"role":"user","parts":{"text":"a"}},"systemInstruction":{"parts":{"text":"s"}}}`))
		f.Add(w, []byte(`{"contents":[{"role":"user","parts":{"text":"a"}},{"role":"model","parts":[{"text":"b"}]}]}`))
	}
	f.Fuzz(func(t *testing.T, w uint8, body []byte) {
		c := memoCodecFor(t, memoWires[int(w)%len(memoWires)])
		memo := traffic.NewMemo()
		for range 2 {
			sameDecoding(t, c, memo, body)
		}
	})
}

// FuzzDecodeGrowingThroughMemo: a request that repeats the bytes of the one
// decoded before it up to some point, as a growing conversation's does
// (the memo then reads only the items after them), decodes as it does
// alone on every wire, the error included.
func FuzzDecodeGrowingThroughMemo(f *testing.F) {
	grow := map[traffic.Wire][2]string{
		traffic.WireAnthropic: {`{"model":"m","messages":[{"role":"user","content":"a"}]}`, `,{"role":"assistant","content":"b"}]}`},
		traffic.WireOpenAI:    {`{"model":"m","messages":[{"role":"user","content":"a"}]}`, `,{"role":"assistant","content":"b"}]}`},
		traffic.WireResponses: {`{"model":"m","input":[{"role":"user","content":"a"}]}`, `,{"type":"message","role":"assistant","content":[{"type":"output_text","text":"b"}]}]}`},
		traffic.WireGemini:    {`{"contents":[{"role":"user","parts":[{"text":"a"}]}]}`, `,{"role":"model","parts":[{"text":"b"}]}]}`},
		traffic.WireBedrock:   {`{"modelId":"m","messages":[{"role":"user","content":[{"text":"a"}]}]}`, `,{"role":"assistant","content":[{"text":"b"}]}]}`},
	}
	for i, w := range memoWires {
		first, extra := grow[w][0], grow[w][1]
		f.Add(uint8(i), []byte(first), uint16(len(first)-2), []byte(extra))
		f.Add(uint8(i), []byte(first), uint16(len(first)-2), []byte(" "+extra+" "))
		f.Add(uint8(i), []byte(first), uint16(len(first)-3), []byte(`,"x":1}]}`))
		f.Add(uint8(i), []byte(first), uint16(len(first)-2), []byte(",\"\xff\"]}"))
	}
	f.Add(uint8(0), []byte(`{"messages":[1]}`), uint16(14), []byte(`2]}`))
	f.Fuzz(func(t *testing.T, w uint8, body []byte, cut uint16, extra []byte) {
		c := memoCodecFor(t, memoWires[int(w)%len(memoWires)])
		next := append(append([]byte(nil), body[:int(cut)%(len(body)+1)]...), extra...)
		memo := traffic.NewMemo()
		for _, b := range [][]byte{body, next, next, body} {
			sameDecoding(t, c, memo, b)
		}
	})
}

// One memo serves a cassette whatever its wires: the same message bytes on
// two wires are two messages, each decoded by its own codec, and a request
// extends the last one of its wire across calls on another.
func TestMemoKeepsWiresApart(t *testing.T) {
	calls := []providers.Call{
		{URL: "https://api.anthropic.com/v1/messages", RequestBody: []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`)},
		{URL: "https://api.openai.com/v1/chat/completions", RequestBody: []byte(`{"model":"m","messages":[{"role":"user","content":"hi"}]}`)},
		{URL: "https://api.anthropic.com/v1/messages", RequestBody: []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yes"}]}`)},
		{URL: "https://api.openai.com/v1/chat/completions", RequestBody: []byte(`{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"yes"}]}`)},
	}
	memo := traffic.NewMemo()
	for i, c := range calls {
		c.Method = "POST"
		alone := providers.Decode(i, c)
		c.Memo = memo
		shared := providers.Decode(i, c)
		if alone.Request == nil {
			t.Fatalf("call %d: %s", i, alone.RequestErr)
		}
		if d := cmp.Diff(alone.Request, shared.Request); d != "" {
			t.Errorf("call %d (%s) through the cassette's memo (-alone +memo):\n%s", i, alone.Wire, d)
		}
	}
}
