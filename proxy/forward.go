package proxy

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"path"
	"strings"

	"github.com/elazarl/goproxy"
)

// DefaultHosts are the provider hosts the forward proxy intercepts; a
// pattern may use * as path.Match does.
var DefaultHosts = []string{
	"api.anthropic.com",
	"api.openai.com",
	"generativelanguage.googleapis.com",
	"aiplatform.googleapis.com",
	"*-aiplatform.googleapis.com",
	"*.openai.azure.com",
	"*.cognitiveservices.azure.com",
	"*.services.ai.azure.com",
	"bedrock-runtime.*.amazonaws.com",
	"bedrock-runtime-fips.*.amazonaws.com",
	"bedrock-mantle.*.api.aws",
	"openrouter.ai",
	"api.deepseek.com",
	"api.groq.com",
	"api.x.ai",
	"api.mistral.ai",
	"api.together.xyz",
	"api.together.ai",
	"api.fireworks.ai",
	"api.moonshot.ai",
	"api.z.ai",
}

// ForwardOptions configure the forward proxy.
type ForwardOptions struct {
	// CA signs the certificates of intercepted hosts. Required: goproxy's
	// built-in CA, whose key is public, is never used.
	CA *CA
	// Hosts to intercept; nil means DefaultHosts. Calls to other hosts are
	// tunnelled untouched.
	Hosts []string
	// Dial opens tunnels to hosts that are not intercepted; nil means a
	// plain net.Dialer.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Log receives goproxy's warnings; nil discards them.
	Log io.Writer
	// Hermetic refuses every host that is not intercepted instead of
	// tunnelling it: a 502 naming the host, and no connection made. Replay
	// mode sets it, so a replaying harness never touches the network.
	Hermetic bool
}

// NewForward returns a forward proxy for HTTPS_PROXY: it intercepts TLS to
// provider hosts with a certificate from opts.CA and sends their calls
// through rt, and tunnels every other host untouched.
func NewForward(rt http.RoundTripper, opts ForwardOptions) http.Handler {
	hosts := opts.Hosts
	if hosts == nil {
		hosts = DefaultHosts
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	p := goproxy.NewProxyHttpServer()
	p.Logger = log.New(explainHandshakes{logw}, "llmtck: goproxy: ", 0)
	tr := NewUpstream()
	if opts.Dial != nil {
		tr.DialContext = opts.Dial
	}
	p.Tr = tr
	// goproxy would otherwise follow HTTPS_PROXY, which points back here.
	p.ConnectDial = nil
	mitm := &goproxy.ConnectAction{
		Action: goproxy.ConnectMitm,
		TLSConfig: func(host string, _ *goproxy.ProxyCtx) (*tls.Config, error) {
			return opts.CA.TLSConfig(host)
		},
	}
	tunnel := &goproxy.ConnectAction{Action: goproxy.ConnectAccept}
	refuse := &goproxy.ConnectAction{Action: goproxy.ConnectHijack, Hijack: func(req *http.Request, client net.Conn, _ *goproxy.ProxyCtx) {
		defer client.Close()
		msg := hermeticRefusal(req.Host)
		fmt.Fprintf(client, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(msg), msg)
	}}
	p.OnRequest().HandleConnectFunc(func(host string, _ *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		switch {
		case Intercepts(hosts, host):
			return mitm, host
		case opts.Hermetic:
			return refuse, host
		}
		return tunnel, host
	})
	via := goproxy.RoundTripperFunc(func(req *http.Request, _ *goproxy.ProxyCtx) (*http.Response, error) {
		return rt.RoundTrip(req)
	})
	p.OnRequest().DoFunc(func(req *http.Request, ctx *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		switch {
		case Intercepts(hosts, req.URL.Host):
			ctx.RoundTripper = via
		case opts.Hermetic:
			return req, goproxy.NewResponse(req, "text/plain; charset=utf-8", http.StatusBadGateway, hermeticRefusal(req.URL.Host))
		}
		return req, nil
	})
	return p
}

func hermeticRefusal(host string) string {
	return fmt.Sprintf("llmtck proxy --mode replay: %s has no cassette here and replay never goes to the network; record it first, or add it to --intercept to have its calls answered from a cassette\n", host)
}

// Intercepts reports whether host (with or without a port) matches one of
// the patterns.
func Intercepts(patterns []string, host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, p := range patterns {
		if ok, _ := path.Match(strings.ToLower(p), host); ok {
			return true
		}
	}
	return false
}
