package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// ReplayPlainText is the replayCompatibility tag of a thought that every
// adapter can replay, as plain text (docs/reference-model.md, seed 003).
const ReplayPlainText = "plain-text"

// Replay tags of the opaque reasoning payloads the four wires produce. The
// payload of each is the exact JSON token the wire carried.
const (
	ReplayAnthropicThinking  = "anthropic-messages-thinking-v1"          // payload: thinking.signature
	ReplayAnthropicRedacted  = "anthropic-messages-redacted-thinking-v1" // payload: redacted_thinking.data
	ReplayResponsesReasoning = "openai-responses-reasoning-item-v1"      // payload: reasoning.encrypted_content
	ReplayGeminiSignature    = "gemini-thought-signature-v1"             // payload: part.thoughtSignature
	// Bedrock's reasoning is bound to Bedrock: Claude's signatures there are
	// not the Anthropic API's, so the tags differ.
	ReplayBedrockReasoning = "bedrock-converse-reasoning-text-v1"     // payload: reasoningText.signature
	ReplayBedrockRedacted  = "bedrock-converse-redacted-reasoning-v1" // payload: reasoningContent.redactedContent
)

// ReplayTags returns the tags a wire's adapter can replay by default: the
// payloads it produces itself. OpenAI Chat Completions has no reasoning
// channel, so it replays only plain-text thoughts.
func ReplayTags(w traffic.Wire) []string {
	switch w {
	case traffic.WireAnthropic:
		return []string{ReplayAnthropicThinking, ReplayAnthropicRedacted}
	case traffic.WireResponses:
		return []string{ReplayResponsesReasoning}
	case traffic.WireGemini:
		return []string{ReplayGeminiSignature}
	case traffic.WireBedrock:
		return []string{ReplayBedrockReasoning, ReplayBedrockRedacted}
	}
	return nil
}

// ErrInvalidThought is the error every thought validation failure matches
// with errors.Is; it mirrors the ADK's E_INVALID_INITIAL_THOUGHT_VALUE.
var ErrInvalidThought = errors.New("E_INVALID_INITIAL_THOUGHT_VALUE")

// ThoughtError says which field of a raw thought is invalid and why.
type ThoughtError struct {
	Field  string // JSON name of the field: "id", "createdAt", "payload"…
	Reason string
}

func (e *ThoughtError) Error() string {
	return fmt.Sprintf("invalid thought: %s: %s", e.Field, e.Reason)
}

// Is makes every ThoughtError match ErrInvalidThought.
func (e *ThoughtError) Is(target error) bool { return target == ErrInvalidThought }

// Identity names the agent that produced a thought.
type Identity struct {
	Identifier     string `json:"identifier"`
	Representation string `json:"representation,omitempty"`
}

// DefaultIdentity is the identity of a thought that names none.
var DefaultIdentity = Identity{Identifier: "assistant", Representation: "assistant"}

// RawThought is the input a Thought is validated from
// (docs/reference-model.md, seed 003). CreatedAt and UpdatedAt accept what
// the seed's date library parses: an ISO 8601 string (date only, no zone,
// +0200…), a time.Time, or a number. A bare number (any Go integer or
// float, or a json.Number) is JavaScript milliseconds, the unit of a JS
// Date and of the seed's TypeScript callers; give seconds as UnixSeconds.
// No unit is guessed from a number's size. Any time from year 1 to 9999 is
// accepted, before 1970 included, and no order between createdAt and
// updatedAt is required, as the seed states none. Identity accepts nil, a
// string, an Identity or a *Identity.
type RawThought struct {
	ID                  string
	Content             string
	CreatedAt           any
	UpdatedAt           any
	Identity            any
	Payload             json.RawMessage // vendor-opaque, kept as the exact JSON token
	ReplayCompatibility string
}

// Thought is a validated reasoning trace. Its Payload, when present, is the
// provider's opaque bytes, replayed only to an adapter that declares the
// thought's ReplayCompatibility tag.
type Thought struct {
	ID                  string          `json:"id"`
	Content             string          `json:"content"`
	CreatedAt           time.Time       `json:"createdAt"`
	UpdatedAt           time.Time       `json:"updatedAt"`
	Identity            Identity        `json:"identity"`
	Payload             json.RawMessage `json:"payload,omitempty"`
	ReplayCompatibility string          `json:"replayCompatibility,omitempty"`
}

// AppendJSON appends the thought as a JSON object with the seed's field
// names, the payload written as the exact bytes it holds. json.Marshal
// cannot do that: it compacts a json.RawMessage (or any MarshalJSON output)
// and escapes <, > and & in it, so a payload holding those changes bytes.
// Persist thoughts with AppendJSON, and read them back with ParseThought.
func (t Thought) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = append(dst, rawjson.Quote(t.ID)...)
	dst = append(dst, `,"content":`...)
	dst = append(dst, rawjson.Quote(t.Content)...)
	dst = append(dst, `,"createdAt":`...)
	dst = append(dst, rawjson.Quote(t.CreatedAt.Format(time.RFC3339Nano))...)
	dst = append(dst, `,"updatedAt":`...)
	dst = append(dst, rawjson.Quote(t.UpdatedAt.Format(time.RFC3339Nano))...)
	dst = append(dst, `,"identity":{"identifier":`...)
	dst = append(dst, rawjson.Quote(t.Identity.Identifier)...)
	dst = append(dst, `,"representation":`...)
	dst = append(dst, rawjson.Quote(t.Identity.Representation)...)
	dst = append(dst, '}')
	if t.Opaque() {
		dst = append(dst, `,"payload":`...)
		dst = append(dst, t.Payload...)
	}
	if t.ReplayCompatibility != "" {
		dst = append(dst, `,"replayCompatibility":`...)
		dst = append(dst, rawjson.Quote(t.ReplayCompatibility)...)
	}
	return append(dst, '}')
}

// Opaque reports whether the thought carries a vendor payload.
func (t Thought) Opaque() bool { return len(t.Payload) > 0 }

// PlainText reports whether the thought is replayable into every adapter as
// text: no payload, and no tag or the explicit plain-text tag. A payload
// makes a thought opaque whatever its tag.
func (t Thought) PlainText() bool {
	return !t.Opaque() && (t.ReplayCompatibility == "" || t.ReplayCompatibility == ReplayPlainText)
}

// NewThought validates raw and returns the thought. Every failure is a
// *ThoughtError matching ErrInvalidThought.
func NewThought(raw RawThought) (Thought, error) {
	t := Thought{ID: raw.ID, Content: raw.Content, ReplayCompatibility: raw.ReplayCompatibility}
	if strings.TrimSpace(raw.ID) == "" {
		return Thought{}, &ThoughtError{"id", "required, a non-empty string"}
	}
	var err error
	if t.CreatedAt, err = thoughtTime(raw.CreatedAt); err != nil {
		return Thought{}, &ThoughtError{"createdAt", err.Error()}
	}
	if t.UpdatedAt, err = thoughtTime(raw.UpdatedAt); err != nil {
		return Thought{}, &ThoughtError{"updatedAt", err.Error()}
	}
	if t.Identity, err = thoughtIdentity(raw.Identity); err != nil {
		return Thought{}, &ThoughtError{"identity", err.Error()}
	}
	payload := bytes.TrimSpace(raw.Payload)
	if len(payload) > 0 && !bytes.Equal(payload, []byte("null")) {
		if !rawjson.Valid(payload) {
			return Thought{}, &ThoughtError{"payload", "not valid JSON"}
		}
		if raw.ReplayCompatibility == "" {
			return Thought{}, &ThoughtError{"payload",
				"a payload requires replayCompatibility: without it no adapter can know it may consume the payload"}
		}
		t.Payload = append(json.RawMessage(nil), payload...)
	}
	return t, nil
}

// UnixSeconds is a time given in Unix seconds, for a RawThought time.
type UnixSeconds float64

// UnixMillis is a time given in Unix milliseconds, the unit a bare number
// is read in; it only says so.
type UnixMillis float64

// Thought times span the years a thought's RFC 3339 form can hold, so a
// thought written with AppendJSON reads back.
var (
	minThoughtTime = time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)
	maxThoughtTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)
)

func thoughtTime(v any) (time.Time, error) {
	switch x := v.(type) {
	case nil:
		return time.Time{}, errors.New("required: an ISO 8601 string, Unix milliseconds or a time.Time")
	case time.Time:
		if x.IsZero() {
			return time.Time{}, errors.New("required: the zero time.Time is not a time")
		}
		return inRange(x.UTC(), x.UTC().Format(time.RFC3339Nano))
	case *time.Time:
		if x == nil {
			return thoughtTime(nil)
		}
		return thoughtTime(*x)
	case string:
		return isoTime(x)
	case UnixSeconds:
		return unixTime(float64(x)*1000, "Unix seconds")
	case UnixMillis:
		return unixTime(float64(x), "Unix milliseconds")
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return time.Time{}, fmt.Errorf("%s is not a number", x)
		}
		return unixTime(f, "Unix milliseconds")
	case float64:
		return unixTime(x, "Unix milliseconds")
	case float32:
		return unixTime(float64(x), "Unix milliseconds")
	case int:
		return unixTime(float64(x), "Unix milliseconds")
	case int32:
		return unixTime(float64(x), "Unix milliseconds")
	case int64:
		return unixTime(float64(x), "Unix milliseconds")
	case uint32:
		return unixTime(float64(x), "Unix milliseconds")
	case uint64:
		return unixTime(float64(x), "Unix milliseconds")
	}
	return time.Time{}, fmt.Errorf("a %T is not a time: want an ISO 8601 string, Unix milliseconds (or UnixSeconds) or a time.Time", v)
}

// unixTime reads ms milliseconds since 1970, negative ones before it.
func unixTime(ms float64, unit string) (time.Time, error) {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || ms < float64(minThoughtTime.UnixMilli()) || ms > float64(maxThoughtTime.UnixMilli()) {
		return time.Time{}, fmt.Errorf("%v %s is outside the years 1 to 9999", ms, unit)
	}
	whole, frac := math.Modf(ms)
	return time.UnixMilli(int64(whole)).Add(time.Duration(math.Round(frac * 1e6))).UTC(), nil
}

func inRange(t time.Time, what string) (time.Time, error) {
	if t.Before(minThoughtTime) || t.After(maxThoughtTime) {
		return time.Time{}, fmt.Errorf("%s is outside the years 1 to 9999", what)
	}
	return t, nil
}

// isoLayouts are the ISO 8601 forms Luxon's DateTime.fromISO reads (the
// seed's library): extended and basic, date only, minutes or seconds with a
// fraction, and a zone as Z, ±hh:mm, ±hhmm or ±hh. A time without a zone
// is read as UTC (Luxon would use the process's zone, which a recording
// cannot depend on).
var isoLayouts = func() []string {
	dates := []string{"2006-01-02", "20060102"}
	times := []string{"T15:04:05.999999999", "T15:04:05", "T15:04", "T150405.999999999", "T150405", "T1504", "T15"}
	zones := []string{"Z07:00", "Z0700", "Z07", ""}
	var out []string
	for _, d := range dates {
		for _, t := range times {
			for _, z := range zones {
				out = append(out, d+t+z)
			}
		}
		out = append(out, d)
	}
	return out
}()

func isoTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, " ") && !strings.Contains(s, "T") {
		s = strings.Replace(s, " ", "T", 1) // "2026-01-02 15:04:05", as SQL writes it
	}
	for _, layout := range isoLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 time (want e.g. 2026-01-02, 2026-01-02T15:04:05Z or 2026-01-02T15:04:05+0200)", s)
}

func thoughtIdentity(v any) (Identity, error) {
	var id Identity
	switch x := v.(type) {
	case nil:
		return DefaultIdentity, nil
	case string:
		id = Identity{Identifier: x, Representation: x}
	case Identity:
		id = x
	case *Identity:
		if x == nil {
			return DefaultIdentity, nil
		}
		id = *x
	default:
		return Identity{}, fmt.Errorf("a %T is not an identity: want a string or an Identity", v)
	}
	if strings.TrimSpace(id.Identifier) == "" {
		return Identity{}, errors.New("identifier must not be empty")
	}
	if id.Representation == "" {
		id.Representation = id.Identifier
	}
	return id, nil
}

// ParseThought validates one thought given as a JSON object with the seed's
// field names: id, content, createdAt, updatedAt, identity, payload,
// replayCompatibility. Unknown fields are rejected so a misspelt
// "replayCompatability" cannot silently strip a payload of its tag.
func ParseThought(data []byte) (Thought, error) {
	fields, err := rawjson.Fields(data)
	if err != nil {
		return Thought{}, &ThoughtError{"$", "not a JSON object: " + err.Error()}
	}
	var raw RawThought
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.Key] {
			return Thought{}, &ThoughtError{f.Key, "appears twice"}
		}
		seen[f.Key] = true
		switch f.Key {
		case "id", "content", "replayCompatibility":
			s, ok := rawjson.String(f.Value)
			if !ok {
				return Thought{}, &ThoughtError{f.Key, "must be a string, found " + rawjson.Kind(f.Value)}
			}
			switch f.Key {
			case "id":
				raw.ID = s
			case "content":
				raw.Content = s
			default:
				raw.ReplayCompatibility = s
			}
		case "createdAt", "updatedAt":
			v, err := jsonTime(f.Value)
			if err != nil {
				return Thought{}, &ThoughtError{f.Key, err.Error()}
			}
			if f.Key == "createdAt" {
				raw.CreatedAt = v
			} else {
				raw.UpdatedAt = v
			}
		case "identity":
			v, err := jsonIdentity(f.Value)
			if err != nil {
				return Thought{}, &ThoughtError{"identity", err.Error()}
			}
			raw.Identity = v
		case "payload":
			raw.Payload = f.Value
		default:
			return Thought{}, &ThoughtError{f.Key, "unknown field"}
		}
	}
	if !seen["content"] {
		return Thought{}, &ThoughtError{"content", "required, a string (it may be empty for an opaque thought)"}
	}
	return NewThought(raw)
}

func jsonTime(v json.RawMessage) (any, error) {
	switch rawjson.Kind(v) {
	case "string":
		s, _ := rawjson.String(v)
		return s, nil
	case "number":
		return json.Number(v), nil
	case "null":
		return nil, nil
	}
	return nil, fmt.Errorf("must be an ISO 8601 string or Unix milliseconds, found %s", rawjson.Kind(v))
}

func jsonIdentity(v json.RawMessage) (any, error) {
	switch rawjson.Kind(v) {
	case "string":
		s, _ := rawjson.String(v)
		return s, nil
	case "null":
		return nil, nil
	case "object":
		fields, err := rawjson.Fields(v)
		if err != nil {
			return nil, err
		}
		var id Identity
		for _, f := range fields {
			s, ok := rawjson.String(f.Value)
			if !ok {
				return nil, fmt.Errorf("%s must be a string, found %s", f.Key, rawjson.Kind(f.Value))
			}
			switch f.Key {
			case "identifier":
				id.Identifier = s
			case "representation":
				id.Representation = s
			default:
				return nil, fmt.Errorf("unknown field %s (want identifier, representation)", f.Key)
			}
		}
		return id, nil
	}
	return nil, fmt.Errorf("must be a string or an object, found %s", rawjson.Kind(v))
}
