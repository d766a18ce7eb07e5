package main

import (
	"bytes"
	"crypto/tls"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/proxy"
)

func TestProxyPrintCA(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ca")
	code, out, errOut := runCLI(t, "proxy", "--print-ca", "--ca-dir", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	first, _, _ := strings.Cut(out, "\n")
	if first != filepath.Join(dir, proxy.CACertFile) || !strings.Contains(out, "NODE_EXTRA_CA_CERTS=") {
		t.Fatalf("output:\n%s", out)
	}
	st, err := os.Stat(filepath.Join(dir, proxy.CAKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", err, st)
	}
}

// proxy --mode replay serves a cassette to a client that uses it as its
// HTTPS_PROXY and trusts the generated CA, and stops on SIGINT.
func TestProxyVerbReplays(t *testing.T) {
	src, err := cassette.Load(filepath.Join(corpus.Dir(t), thinkingCassette))
	if err != nil {
		t.Fatal(err)
	}
	dir, caDir := t.TempDir(), t.TempDir()
	if err := cassette.Save(proxy.CassetteFor(dir, "api.anthropic.com"), src); err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "proxy", "--listen", "127.0.0.1:0", "--mode", "replay", "--cassette-dir", dir, "--ca-dir", caDir)
	ca, err := proxy.LoadOrCreateCA(caDir)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(s.addr)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	resp, err := client.Post("https://api.anthropic.com/v1/messages?beta=true", "application/json", bytes.NewReader(src.Interactions[0].Request.Body))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, src.Interactions[0].Response.Body) {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	if code := s.stop(t, os.Interrupt); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "replay POST api.anthropic.com/v1/messages 200 plain") {
		t.Errorf("stderr:\n%s", s.stderr)
	}
}
