package simulator_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/traffic"
)

// The simulated providers answer a client that speaks HTTP/2 cleartext
// with prior knowledge, as the AWS SDK for JavaScript v3 does to an
// http:// endpoint, and one that speaks HTTP/1.1.
func TestPlayServesH2C(t *testing.T) {
	sc := load(t, "bedrock/thinking-tool-loop")
	h2 := new(http.Protocols)
	h2.SetUnencryptedHTTP2(true)
	clients := map[string]*http.Client{
		"HTTP/2.0": {Transport: &http.Transport{Protocols: h2}},
		"HTTP/1.1": {Transport: &http.Transport{}},
	}
	_, err := simulator.Play(sc, func(s *simulator.Session) error {
		for proto, c := range clients {
			// A request outside the scenario's paths: the answer is
			// Bedrock's own 404, whichever protocol asked.
			resp, err := c.Post(s.BaseURL(traffic.WireBedrock)+"/model/m/invoke", "application/json", strings.NewReader("{}"))
			if err != nil {
				t.Errorf("%s: %v", proto, err)
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.Proto != proto || resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "UnknownOperationException") {
				t.Errorf("%s: answered %s %d %s", proto, resp.Proto, resp.StatusCode, body)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
