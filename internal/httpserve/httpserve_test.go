package httpserve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A server with Protocols answers a client speaking HTTP/2 with prior
// knowledge on a cleartext connection, and one speaking HTTP/1.1.
func TestServesH2CAndHTTP1(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	srv.Config.Protocols = Protocols()
	srv.Start()
	defer srv.Close()

	h2 := new(http.Protocols)
	h2.SetUnencryptedHTTP2(true)
	clients := map[string]*http.Client{
		"HTTP/2.0": {Transport: &http.Transport{Protocols: h2}},
		"HTTP/1.1": {Transport: &http.Transport{}},
	}
	for want, c := range clients {
		resp, err := c.Get(srv.URL)
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Proto != want || string(body) != want {
			t.Errorf("client %s: response %s, server saw %q", want, resp.Proto, body)
		}
	}
}
