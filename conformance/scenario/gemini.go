package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/traffic"
)

// gem serves the Gemini API as a Gemini 3 model: POST
// /v1beta/models/{model}:generateContent and :streamGenerateContent?alt=sse,
// parts of the model turn in steps, thoughtSignatures minted.
type gem struct{}

// gemPath is a generation endpoint: the API version, the model, the method.
var gemPath = regexp.MustCompile(`^/(v1|v1beta|v1alpha)/models/([^/:]+):([A-Za-z]+)$`)

// endpoint accepts any API key, or none: the simulator needs no identity.
func (gem) endpoint(r *http.Request) (bool, *Fault) {
	m := gemPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil || (m[3] != "generateContent" && m[3] != "streamGenerateContent") {
		return false, &Fault{Status: http.StatusNotFound, Message: "Requested entity was not found.",
			Detail: r.Method + " " + r.URL.Path + ": the Gemini API is POST /v1beta/models/{model}:generateContent or :streamGenerateContent"}
	}
	if m[3] == "generateContent" {
		return false, nil
	}
	if alt := r.URL.Query().Get("alt"); alt != "sse" {
		// Without alt=sse the API streams one JSON array, which the
		// simulator does not serve.
		return true, &Fault{Status: http.StatusBadRequest,
			Message: "llmtck simulator: streamGenerateContent is served as server-sent events only; add ?alt=sse to the URL",
			Detail:  fmt.Sprintf("streamGenerateContent with alt=%q: the simulator streams only with alt=sse", alt)}
	}
	return true, nil
}

// checkStep reads every part as a model turn holds it — text, thought text
// or a functionCall, with an optional thoughtSignature — then decodes the
// rendered step with the codec, whole and streamed, so a scenario cannot
// serve what the codec does not read back part for part.
func (gem) checkStep(s *Scenario, st Step, tools map[string]bool) error {
	for j, raw := range st.Content {
		if err := gemCheckPart(raw, tools); err != nil {
			return fmt.Errorf("content[%d]%v", j, err)
		}
	}
	filled := fillAll(st.Content)
	codec := providers.For(traffic.WireGemini)
	for _, body := range [][]byte{gemRender(s, st, 0, filled), bytes.Join(gemStream(s, st, 0, filled), nil)} {
		resp, err := codec.DecodeResponse(http.StatusOK, nil, body)
		if err != nil {
			return fmt.Errorf("content: does not decode as a gemini response: %v", err)
		}
		if resp.Stream != nil && (!resp.Stream.Complete || len(resp.Stream.Issues) > 0) {
			return fmt.Errorf("content: streams with issues %v", resp.Stream.Issues)
		}
		if len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
			return fmt.Errorf("content: decodes to %d messages, not one with %d parts (two plain text parts in a row are one part once streamed: join them)", len(resp.Output), len(st.Content))
		}
	}
	return nil
}

// gemCheckPart checks one part of a model turn; the error starts with the
// field at fault.
func gemCheckPart(raw json.RawMessage, tools map[string]bool) error {
	fs, err := rawjson.Fields(raw)
	if err != nil {
		return fmt.Errorf(": want a part object: %v", err)
	}
	data := 0
	for _, f := range fs {
		switch f.Key {
		case "text":
			data++
			if _, ok := rawjson.String(f.Value); !ok {
				return fmt.Errorf(".text: want a string, got %s", rawjson.Describe(f.Value))
			}
		case "thought":
			if string(f.Value) != "true" {
				return fmt.Errorf(".thought: want true on a thought part, got %s", f.Value)
			}
		case "thoughtSignature":
			if s, _ := rawjson.String(f.Value); s != Placeholder {
				return fmt.Errorf(".thoughtSignature: want %q, which the simulator mints", Placeholder)
			}
		case "functionCall":
			data++
			if err := gemCheckCall(f.Value, tools); err != nil {
				return fmt.Errorf(".functionCall%v", err)
			}
		default:
			return fmt.Errorf(".%s: a model part here holds text, thought, thoughtSignature or functionCall", f.Key)
		}
	}
	f := fields(raw)
	switch {
	case data != 1:
		return fmt.Errorf(": want exactly one of text and functionCall, got %d", data)
	case f["thought"] != nil && f["functionCall"] != nil:
		return fmt.Errorf(".thought: a functionCall part is not a thought")
	}
	return nil
}

func gemCheckCall(raw json.RawMessage, tools map[string]bool) error {
	fs, err := rawjson.Fields(raw)
	if err != nil {
		return fmt.Errorf(": want an object: %v", err)
	}
	f := map[string]json.RawMessage{}
	for _, x := range fs {
		switch x.Key {
		case "name", "args", "id":
			f[x.Key] = x.Value
		default:
			return fmt.Errorf(".%s: a functionCall holds name, args and id", x.Key)
		}
	}
	name, _ := rawjson.String(f["name"])
	switch {
	case !tools[name]:
		return fmt.Errorf(".name: tool %q is not among the scenario's tools", name)
	case rawjson.Kind(f["args"]) != "object":
		return fmt.Errorf(".args: want an object, got %s", rawjson.Describe(f["args"]))
	}
	if id, ok := f["id"]; ok && rawjson.Kind(id) != "string" {
		return fmt.Errorf(".id: want a string, got %s", rawjson.Describe(id))
	}
	return nil
}

// respond mints step n's thoughtSignatures, each bound to req and to the
// parts before it, and renders the response.
func (gem) respond(m *Minter, s *Scenario, n int, req *traffic.Request, stream bool) ([][]byte, error) {
	st := s.Steps[n]
	resp, err := providers.For(traffic.WireGemini).DecodeResponse(http.StatusOK, nil, gemRender(s, st, n, fillAll(st.Content)))
	if err != nil || len(resp.Output) != 1 || len(resp.Output[0].Blocks) != len(st.Content) {
		return nil, fmt.Errorf("step %d does not decode: %v", n, err)
	}
	req = gemNormal(req)
	blocks := resp.Output[0].Blocks
	content := make([]json.RawMessage, len(st.Content))
	placeholder := []byte(`"` + Placeholder + `"`)
	for j, raw := range st.Content {
		raw = rawjson.Compact(raw)
		content[j] = raw
		if blocks[j].Signature == nil {
			continue
		}
		tok := m.mint(req, len(req.Messages), blocks[:j], gemPayload(blocks[j]), nil)
		blocks[j].Signature = rawjson.Quote(tok)
		content[j] = bytes.Replace(raw, placeholder, rawjson.Quote(tok), 1)
	}
	if stream {
		return gemStream(s, st, n, content), nil
	}
	return [][]byte{gemRender(s, st, n, content)}, nil
}

// verify checks the thoughtSignature of every functionCall part of the
// current turn — the model turns after the last user content that is not
// only function responses — as a Gemini 3 model does
// (docs/provider-rules.md G2, G3): an altered, foreign or moved signature is
// GEM-SIG-003's "Corrupted thought signature.", and so is a genuine one whose
// history changed. Signatures elsewhere are not validated by the API; the
// documented dummy signatures stand for calls the client wrote and pass.
func (gem) verify(m *Minter, req *traffic.Request) *Fault {
	req = gemNormal(req)
	for i := gemTurnStart(req.Messages) + 1; i < len(req.Messages); i++ {
		msg := req.Messages[i]
		if msg.Role != traffic.RoleAssistant {
			continue
		}
		for j, b := range msg.Blocks {
			if b.Type != traffic.BlockToolCall || b.Signature == nil || gemDummy(b.Signature) {
				continue
			}
			loc := fmt.Sprintf("request.contents[%d].parts[%d].thoughtSignature", i, j)
			switch m.check(b.Signature, req, i, j, gemPayload(b)) {
			case forged:
				return &Fault{Check: "GEM-SIG-003", Location: loc,
					Detail: fmt.Sprintf("the thoughtSignature at %s is not one the simulator minted for this functionCall (%s)", loc, b.Name)}
			case rebound:
				// Google documents signatures as bound to the model, route
				// and key (docs/provider-rules.md G3), not to the history
				// before them: report it, do not refuse it.
				return &Fault{Check: "GEM-SIG-003", Location: loc, Warning: true,
					Detail: fmt.Sprintf("the thoughtSignature at %s was minted after a different history: the system instruction, tools, an earlier content or an earlier part changed, or the part moved (a warning: no public document says Gemini refuses this)", loc)}
			}
		}
	}
	return nil
}

// gemTurnStart is the index of the last user content with ordinary
// content, where the current turn starts; -1 when there is none.
func gemTurnStart(msgs []traffic.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != traffic.RoleUser {
			continue
		}
		for _, b := range msgs[i].Blocks {
			if b.Type != traffic.BlockToolResult {
				return i
			}
		}
	}
	return -1
}

// gemDummies are the documented signatures that skip validation (G4).
var gemDummies = []string{"context_engineering_is_the_way_to_go", "skip_thought_signature_validator"}

func gemDummy(raw json.RawMessage) bool {
	s, _ := rawjson.String(raw)
	for _, d := range gemDummies {
		if s == d {
			return true
		}
	}
	return false
}

// gemPayload is what a part's signature signs: the call's name and
// arguments (not its id, which clients may add or drop), or the text.
func gemPayload(b traffic.Block) []byte {
	switch {
	case b.Type == traffic.BlockToolCall:
		args := rawjson.Compact(b.Input)
		if len(args) == 0 {
			args = []byte("{}")
		}
		return append([]byte("functionCall "+b.Name+" "), args...)
	case b.Thought:
		return []byte("thought " + b.Text)
	}
	return []byte("text " + b.Text)
}

// gemNormal returns req with every signature in its standard base64
// spelling: the API decodes signatures, so a client that echoes one in the
// URL-safe alphabet (pydantic-ai does) echoes the same signature. req itself
// is not changed.
func gemNormal(req *traffic.Request) *traffic.Request {
	out := *req
	out.Messages = make([]traffic.Message, len(req.Messages))
	for i, msg := range req.Messages {
		out.Messages[i] = msg
		out.Messages[i].Blocks = append([]traffic.Block(nil), msg.Blocks...)
		for j, b := range msg.Blocks {
			if b.Signature == nil || gemDummy(b.Signature) {
				continue
			}
			if sig, err := gemini.SignatureBytes(b.Signature); err == nil {
				out.Messages[i].Blocks[j].Signature = rawjson.Quote(base64.StdEncoding.EncodeToString(sig))
			}
		}
	}
	return &out
}

// gemRender builds step n's response as one GenerateContentResponse, with
// content as served (placeholders minted).
func gemRender(s *Scenario, st Step, n int, content []json.RawMessage) []byte {
	return gemChunk(s, st, n, content, true)
}

// gemChunk is one GenerateContentResponse holding parts, as the API writes
// it: the candidate, usage, the model version and the response id;
// finishReason only on the last chunk of a stream.
func gemChunk(s *Scenario, st Step, n int, parts []json.RawMessage, last bool) []byte {
	// The API writes each chunk on one line: a part spelled over several
	// lines in the scenario is sent compact (key order kept).
	compact := make([]json.RawMessage, len(parts))
	for i, p := range parts {
		compact[i] = rawjson.Compact(p)
	}
	var content rawjson.Object
	content.Raw("parts", rawjson.ArrayOf(compact))
	content.String("role", "model")
	var cand rawjson.Object
	cand.Raw("content", content.Bytes())
	if last {
		reason := st.StopReason
		if reason == "" {
			reason = "STOP" // also after function calls
		}
		cand.String("finishReason", reason)
	}
	cand.Int("index", 0)
	var o rawjson.Object
	o.Raw("candidates", rawjson.ArrayOf([]json.RawMessage{cand.Bytes()}))
	usage := rawjson.Compact(st.Usage)
	if len(usage) == 0 {
		usage = []byte(`{"promptTokenCount":0,"candidatesTokenCount":0,"totalTokenCount":0}`)
	}
	o.Raw("usageMetadata", usage)
	o.String("modelVersion", st.Model)
	o.String("responseId", gemResponseID(s, n))
	return o.Bytes()
}

// gemResponseID is a fixed id in the API's style for step n.
func gemResponseID(s *Scenario, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("llmtck %s step %d", s.Name, n)))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// gemStream builds step n's response as the API streams it with alt=sse:
// one "data:" event per chunk, unsigned text split over two chunks, the
// function calls of a step whole in one chunk, a signed part whole in its
// own, finishReason on the last.
func gemStream(s *Scenario, st Step, n int, content []json.RawMessage) [][]byte {
	var groups [][]json.RawMessage
	calls := false // the last group holds function calls
	for _, raw := range content {
		f := fields(raw)
		text, isText := rawjson.String(f["text"])
		switch {
		case f["functionCall"] != nil && calls:
			groups[len(groups)-1] = append(groups[len(groups)-1], raw)
			continue
		case f["functionCall"] != nil:
			groups = append(groups, []json.RawMessage{raw})
			calls = true
			continue
		case isText && f["thoughtSignature"] == nil:
			for _, half := range halves(text) {
				var p rawjson.Object
				p.String("text", half)
				if f["thought"] != nil {
					p.Bool("thought", true)
				}
				groups = append(groups, []json.RawMessage{p.Bytes()})
			}
		default:
			groups = append(groups, []json.RawMessage{raw})
		}
		calls = false
	}
	out := make([][]byte, len(groups))
	for i, g := range groups {
		out[i] = append(append([]byte("data: "), gemChunk(s, st, n, g, i == len(groups)-1)...), "\r\n\r\n"...)
	}
	return out
}
