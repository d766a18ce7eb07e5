package harness_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
)

// Scripted replies for the OpenAI Responses and Gemini wires, written the
// way the providers write them.

func q(s string) string { return string(rawjson.Quote(s)) }

// rItem is one output item of a Responses reply. Opaque values (enc,
// args) are raw JSON string tokens, escapes included.
type rItem struct {
	kind    string // "reasoning", "message" or "function_call"
	id      string // rs_…, msg_…, fc_…
	text    string // reasoning summary or message text
	enc     string // reasoning encrypted_content token
	phase   string // message phase, when set
	callID  string
	name    string
	args    string // arguments token
	partial bool   // the stream stops inside this item
}

// done is the item as output_item.done and the response carry it.
func (it rItem) done() string {
	switch it.kind {
	case "reasoning":
		s := `{"id":` + q(it.id) + `,"type":"reasoning","summary":[`
		if it.text != "" {
			s += `{"type":"summary_text","text":` + q(it.text) + `}`
		}
		s += `]`
		if it.enc != "" {
			s += `,"encrypted_content":` + it.enc
		}
		return s + `}`
	case "message":
		s := `{"id":` + q(it.id) + `,"type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":` + q(it.text) + `}]`
		if it.phase != "" {
			s += `,"phase":` + q(it.phase)
		}
		return s + `,"role":"assistant"}`
	}
	return `{"id":` + q(it.id) + `,"type":"function_call","status":"completed","arguments":` + it.args + `,"call_id":` + q(it.callID) + `,"name":` + q(it.name) + `}`
}

// rTurn is one Responses reply.
type rTurn struct {
	id      string
	items   []rItem
	in, out int
}

func (tu rTurn) response(status string, items []rItem) string {
	var out []string
	for _, it := range items {
		out = append(out, it.done())
	}
	return fmt.Sprintf(`{"id":%q,"object":"response","created_at":1757687080,"status":%q,"model":"gpt-test","output":[%s],"store":false,"usage":{"input_tokens":%d,"input_tokens_details":{"cached_tokens":0},"output_tokens":%d,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":%d}}`,
		tu.id, status, strings.Join(out, ","), tu.in, tu.out, tu.in+tu.out)
}

// document is the reply as a JSON response body.
func (tu rTurn) document() string { return tu.response("completed", tu.items) }

// events are the reply as stream event payloads, in the order the API
// sends them: text and arguments split across two deltas, the complete
// item (encrypted_content included) only in output_item.done. A partial
// item ends the events after its first delta.
func (tu rTurn) events() []string {
	var ev []string
	add := func(format string, args ...any) {
		e := fmt.Sprintf(format, args...)
		ev = append(ev, strings.Replace(e, "{", fmt.Sprintf(`{"sequence_number":%d,`, len(ev)), 1))
	}
	add(`{"type":"response.created","response":%s}`, tu.response("in_progress", nil))
	add(`{"type":"response.in_progress","response":%s}`, tu.response("in_progress", nil))
	for k, it := range tu.items {
		half := len(it.text) / 2
		switch it.kind {
		case "reasoning":
			add(`{"type":"response.output_item.added","output_index":%d,"item":{"id":%q,"type":"reasoning","summary":[]}}`, k, it.id)
			if it.text != "" {
				add(`{"type":"response.reasoning_summary_part.added","item_id":%q,"output_index":%d,"summary_index":0,"part":{"type":"summary_text","text":""}}`, it.id, k)
				add(`{"type":"response.reasoning_summary_text.delta","item_id":%q,"output_index":%d,"summary_index":0,"delta":%s}`, it.id, k, q(it.text[:half]))
				add(`{"type":"response.reasoning_summary_text.delta","item_id":%q,"output_index":%d,"summary_index":0,"delta":%s}`, it.id, k, q(it.text[half:]))
				add(`{"type":"response.reasoning_summary_text.done","item_id":%q,"output_index":%d,"summary_index":0,"text":%s}`, it.id, k, q(it.text))
				add(`{"type":"response.reasoning_summary_part.done","item_id":%q,"output_index":%d,"summary_index":0,"part":{"type":"summary_text","text":%s}}`, it.id, k, q(it.text))
			}
		case "message":
			add(`{"type":"response.output_item.added","output_index":%d,"item":{"id":%q,"type":"message","status":"in_progress","content":[],"role":"assistant"}}`, k, it.id)
			add(`{"type":"response.content_part.added","item_id":%q,"output_index":%d,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}`, it.id, k)
			add(`{"type":"response.output_text.delta","item_id":%q,"output_index":%d,"content_index":0,"delta":%s,"logprobs":[]}`, it.id, k, q(it.text[:half]))
			if it.partial {
				return ev
			}
			add(`{"type":"response.output_text.delta","item_id":%q,"output_index":%d,"content_index":0,"delta":%s,"logprobs":[]}`, it.id, k, q(it.text[half:]))
			add(`{"type":"response.output_text.done","item_id":%q,"output_index":%d,"content_index":0,"text":%s,"logprobs":[]}`, it.id, k, q(it.text))
			add(`{"type":"response.content_part.done","item_id":%q,"output_index":%d,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":%s}}`, it.id, k, q(it.text))
		default:
			args, _ := rawjson.String([]byte(it.args))
			h := len(args) / 2
			add(`{"type":"response.output_item.added","output_index":%d,"item":{"id":%q,"type":"function_call","status":"in_progress","arguments":"","call_id":%q,"name":%q}}`, k, it.id, it.callID, it.name)
			add(`{"type":"response.function_call_arguments.delta","item_id":%q,"output_index":%d,"delta":%s}`, it.id, k, q(args[:h]))
			add(`{"type":"response.function_call_arguments.delta","item_id":%q,"output_index":%d,"delta":%s}`, it.id, k, q(args[h:]))
			add(`{"type":"response.function_call_arguments.done","item_id":%q,"output_index":%d,"arguments":%s}`, it.id, k, it.args)
		}
		add(`{"type":"response.output_item.done","output_index":%d,"item":%s}`, k, it.done())
	}
	add(`{"type":"response.completed","response":%s}`, tu.document())
	return ev
}

// rStream answers with the reply as an event stream, flushing each event.
// When an item is partial, it then waits for the client to give up.
func rStream(tu rTurn) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range tu.events() {
			var name struct{ Type string }
			json.Unmarshal([]byte(e), &name)
			w.Write(sse.Write(nil, name.Type, e))
			w.(http.Flusher).Flush()
		}
		if tu.items[len(tu.items)-1].partial {
			<-r.Context().Done()
		}
	}
}

// rDocument answers with the reply as one JSON body.
func rDocument(tu rTurn) func(w http.ResponseWriter, r *http.Request) {
	return recorded(200, "application/json", []byte(tu.document()))
}

// gTurn is one Gemini reply: the parts of each streamed chunk, raw JSON
// as the API writes them. Unstreamed, the parts go in one candidate.
type gTurn struct {
	chunks  [][]string
	in, out int
	cut     bool // the stream stops before the final chunk
}

func (g gTurn) chunk(parts []string, final bool) string {
	s := `{"candidates":[{"content":{"parts":[` + strings.Join(parts, ",") + `],"role":"model"}`
	if final {
		s += `,"finishReason":"STOP"`
	}
	s += `,"index":0}]`
	if final {
		s += fmt.Sprintf(`,"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":%d,"totalTokenCount":%d}`, g.in, g.out, g.in+g.out)
	}
	return s + `,"modelVersion":"gemini-test","responseId":"resp-1"}`
}

func (g gTurn) document() string {
	var all []string
	for _, c := range g.chunks {
		all = append(all, c...)
	}
	return g.chunk(all, true)
}

// gStream answers with the reply as data-only SSE chunks, as
// :streamGenerateContent?alt=sse does, the last one carrying finishReason.
// A cut stream leaves out the last chunk and waits for the client.
func gStream(g gTurn) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		n := len(g.chunks)
		if g.cut {
			n--
		}
		for i := 0; i < n; i++ {
			io.WriteString(w, "data: "+g.chunk(g.chunks[i], i == len(g.chunks)-1)+"\r\n\r\n")
			w.(http.Flusher).Flush()
		}
		if g.cut {
			<-r.Context().Done()
		}
	}
}

func gDocument(g gTurn) func(w http.ResponseWriter, r *http.Request) {
	return recorded(200, "application/json", []byte(g.document()))
}

// cancelOnRead is an HTTP client whose response bodies call cancel once
// the bytes read so far contain marker: the run is cancelled mid-stream
// at a known point, without timing.
func cancelOnRead(marker string, cancel func()) *http.Client {
	return &http.Client{Transport: cancelTransport{marker, cancel}}
}

type cancelTransport struct {
	marker string
	cancel func()
}

func (c cancelTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		resp.Body = &cancelBody{ReadCloser: resp.Body, t: c}
	}
	return resp, err
}

type cancelBody struct {
	io.ReadCloser
	t    cancelTransport
	seen strings.Builder
}

func (b *cancelBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.seen.Write(p[:n])
	if strings.Contains(b.seen.String(), b.t.marker) {
		b.t.cancel()
	}
	return n, err
}
