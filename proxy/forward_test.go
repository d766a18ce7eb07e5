package proxy

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elazarl/goproxy"
)

// Hosts that are not providers go through a plain tunnel: the client talks
// TLS with the real server (it trusts only that server's certificate, not the
// llmtck CA) and nothing is recorded. Provider hosts get a certificate from
// the llmtck CA, never from goproxy's built-in one.
func TestForwardInterceptsOnlyProviderHosts(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	other := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("straight from the server"))
	}))
	defer other.Close()
	prov := newProvider(t, true, &loadCorpus(t, chatJSON).Interactions[0].Response)
	dir := t.TempDir()
	rec := mustRecorder(t, Options{Mode: ModeRecord, Dir: dir, Upstream: upstreamTo(prov)})
	fwd := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca}))
	defer fwd.Close()

	proxied := viaProxy(fwd.URL, ca).Transport.(*http.Transport)
	proxied.TLSClientConfig = &tls.Config{RootCAs: other.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs}
	resp, body := post(t, &http.Client{Transport: proxied}, other.URL+"/anything", nil)
	if resp.StatusCode != 200 || string(body) != "straight from the server" {
		t.Fatalf("tunnelled call: %d %q", resp.StatusCode, body)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a tunnelled call was recorded: %v", entries)
	}

	resp, _ = post(t, viaProxy(fwd.URL, ca), "https://api.openai.com/v1/chat/completions", []byte(`{}`))
	leaf := resp.TLS.PeerCertificates[0]
	if err := leaf.CheckSignatureFrom(ca.Cert); err != nil {
		t.Fatalf("the provider host's certificate is not from the llmtck CA: %v", err)
	}
	builtin, _ := x509.ParseCertificate(goproxy.GoproxyCa.Certificate[0])
	if leaf.CheckSignatureFrom(builtin) == nil || strings.Contains(leaf.Issuer.String(), "GoProxy") {
		t.Fatal("goproxy's built-in CA signed a certificate")
	}
	rec.Close()
	if _, err := os.Stat(CassetteFor(dir, "api.openai.com")); err != nil {
		t.Fatalf("the provider call was not recorded: %v", err)
	}
}

func TestIntercepts(t *testing.T) {
	for host, want := range map[string]bool{
		"api.anthropic.com:443":                             true,
		"API.OpenAI.com":                                    true,
		"us-central1-aiplatform.googleapis.com":             true,
		"myres.openai.azure.com:443":                        true,
		"generativelanguage.googleapis.com.":                true,
		"api.anthropic.com.evil.example":                    false,
		"storage.googleapis.com":                            false,
		"github.com:443":                                    false,
		"aiplatform.googleapis.com.attacker.test":           false,
		"bedrock-runtime.us-east-1.amazonaws.com":           true,
		"bedrock-runtime-fips.us-gov-west-1.amazonaws.com":  true,
		"bedrock-mantle.us-east-1.api.aws":                  true,
		"s3.us-east-1.amazonaws.com":                        false,
		"bedrock-runtime.us-east-1.amazonaws.com.evil.test": false,
		"openrouter.ai":                                     true,
		"api.deepseek.com:443":                              true,
		"myres.cognitiveservices.azure.com":                 true,
	} {
		if got := Intercepts(DefaultHosts, host); got != want {
			t.Errorf("Intercepts(%q) = %v, want %v", host, got, want)
		}
	}
}

// In replay mode the forward proxy never touches the network: a host it
// does not intercept is refused with a 502 naming it, by CONNECT and by
// plain HTTP, and a listener standing in for that host sees no connection.
func TestReplayIsHermetic(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dials := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			dials <- struct{}{}
			c.Close()
		}
	}()
	rec := mustRecorder(t, Options{Mode: ModeReplay, Dir: t.TempDir()})
	fwd := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca, Hermetic: true}))
	defer fwd.Close()
	target := ln.Addr().String()

	// HTTPS (CONNECT) to a host that is not intercepted.
	_, err = viaProxy(fwd.URL, ca).Get("https://" + target + "/")
	if err == nil || !strings.Contains(err.Error(), "Bad Gateway") {
		t.Errorf("CONNECT to %s: %v, want the proxy's 502", target, err)
	}
	// Plain HTTP through the proxy.
	u, _ := url.Parse(fwd.URL)
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u)}}).Get("http://" + target + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), target) || !strings.Contains(string(body), "--mode replay") {
		t.Errorf("plain HTTP: %d %s", resp.StatusCode, body)
	}
	select {
	case <-dials:
		t.Fatal("replay mode opened a connection to the network")
	case <-time.After(100 * time.Millisecond):
	}
}

// A client that does not trust the llmtck CA fails its handshake with a
// bare TLS alert; the proxy's log says what happened and points to
// --print-ca, naming the host.
func TestUntrustedCAIsExplained(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Dir: t.TempDir()})
	fwd := httptest.NewServer(NewForward(rec, ForwardOptions{CA: ca, Log: &log}))
	defer fwd.Close()
	u, _ := url.Parse(fwd.URL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u)}} // the system roots only
	if _, err := client.Post("https://api.openai.com/v1/chat/completions", "application/json", strings.NewReader(`{}`)); err == nil {
		t.Fatal("a client that does not trust the CA got through")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "--print-ca") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := log.String(); !strings.Contains(got, "api.openai.com:443: the client broke off the TLS handshake") || !strings.Contains(got, "llmtck proxy --print-ca") {
		t.Errorf("the proxy's log does not explain the failed handshake:\n%s", got)
	}
}
