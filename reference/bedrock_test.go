package reference_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
)

// A harness that re-encodes Claude's reasoning on Bedrock is refused as
// Bedrock refuses it: HTTP 400, x-amzn-ErrorType ValidationException, and
// the message in Bedrock's {"message": …} body.
func TestBedrockRefusesLikeBedrock(t *testing.T) {
	sc, err := scenario.Load("bedrock/thinking-tool-loop")
	if err != nil {
		t.Fatal(err)
	}
	sim, _ := simulator.Play(sc, func(s *simulator.Session) error {
		reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: reference.VariantReencodeThinking})
		return nil
	})
	rj := sim.Rejections()
	if len(rj) == 0 {
		t.Fatal("the simulator accepted re-encoded reasoning")
	}
	if rj[0].Check != "BDR-THINK-001" || rj[0].Status != 400 {
		t.Fatalf("rejection %v, want BDR-THINK-001 with HTTP 400", rj[0])
	}
	c := sim.Cassette()
	var resp = c.Interactions[len(c.Interactions)-1].Response
	if got := resp.Header.Get("X-Amzn-Errortype"); !strings.HasPrefix(got, "ValidationException:") {
		t.Errorf("x-amzn-ErrorType %q, want ValidationException", got)
	}
	if body := string(resp.Body); !strings.HasPrefix(body, `{"message":"The model returned the following errors: messages.1.content.0`) {
		t.Errorf("body %s, want Bedrock's message naming messages.1.content.0", body)
	}
	// The request went to Bedrock's own path, streamed, with the model id in it.
	if u := c.Interactions[0].Request.URL; !strings.HasSuffix(u, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/converse-stream") {
		t.Errorf("first request went to %s", u)
	}
}
