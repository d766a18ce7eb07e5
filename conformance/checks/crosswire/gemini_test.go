package crosswire_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// Hand-built Gemini traffic, the wire the cross-wire tables are written
// on: the builders of the Gemini family's tests.

func gemSigOf(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func gemUser(text string) string {
	return fmt.Sprintf(`{"role":"user","parts":[{"text":%q}]}`, text)
}

func gemModel(parts ...string) string {
	return `{"role":"model","parts":[` + strings.Join(parts, ",") + `]}`
}

func gemResults(names ...string) string {
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf(`{"functionResponse":{"name":%q,"response":{"output":"ok"}}}`, n))
	}
	return `{"role":"user","parts":[` + strings.Join(parts, ",") + `]}`
}

// gemCall is a functionCall part; sig "" leaves the signature out.
func gemCall(name, sig string) string {
	if sig == "" {
		return fmt.Sprintf(`{"functionCall":{"name":%q,"args":{}}}`, name)
	}
	return fmt.Sprintf(`{"functionCall":{"name":%q,"args":{}},"thoughtSignature":%q}`, name, sig)
}

func gemText(text, sig string) string {
	if sig == "" {
		return fmt.Sprintf(`{"text":%q}`, text)
	}
	return fmt.Sprintf(`{"text":%q,"thoughtSignature":%q}`, text, sig)
}

func gemResponse(parts ...string) string {
	return `{"candidates":[{"content":` + gemModel(parts...) + `,"finishReason":"STOP","index":0}]}`
}

// gemTraffic builds traffic from request and response bodies, in pairs, for
// the model.
func gemTrafficOf(t testing.TB, model string, bodies ...string) *check.Traffic {
	t.Helper()
	return gemTrafficThrough(t, nil, model, bodies...)
}

// gemTrafficThrough is gemTrafficOf with the requests decoded through memo,
// as check and the recorder decode them: a request that repeats the one
// before shares its messages in memory. A nil memo decodes each alone.
func gemTrafficThrough(t testing.TB, memo *traffic.Memo, model string, bodies ...string) *check.Traffic {
	t.Helper()
	tr := &check.Traffic{}
	for i := 0; i+1 < len(bodies); i += 2 {
		if !json.Valid([]byte(bodies[i])) {
			t.Fatalf("not JSON: %s", bodies[i])
		}
		ex := providers.Decode(len(tr.Exchanges), providers.Call{
			Method: "POST", URL: "https://generativelanguage.googleapis.com/v1beta/models/" + model + ":generateContent",
			RequestBody: []byte(bodies[i]), Status: 200, ResponseBody: []byte(bodies[i+1]), Memo: memo,
		})
		if ex.RequestErr != "" || ex.ResponseErr != "" || ex.Wire != traffic.WireGemini {
			t.Fatalf("exchange %d: %s %s %s", ex.Index, ex.Wire, ex.RequestErr, ex.ResponseErr)
		}
		tr.Exchanges = append(tr.Exchanges, ex)
	}
	return tr
}

func gemRequest(contents ...string) string {
	return `{"contents":[` + strings.Join(contents, ",") + `]}`
}
