package proxy

import (
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// NewHandler serves calls as a provider base URL: a harness points
// ANTHROPIC_BASE_URL, OPENAI_BASE_URL or the Gemini base URL at it, and each
// call goes through rt. upstream is where calls go (scheme, host, optional
// base path prefixed to every call's path); nil serves a replay, where
// the URL keeps the host the client used.
func NewHandler(rt http.RoundTripper, upstream *url.URL) http.Handler {
	return &handler{rt: rt, upstream: upstream}
}

type handler struct {
	rt       http.RoundTripper
	upstream *url.URL
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u := *r.URL
	if h.upstream != nil {
		u.Scheme, u.Host = h.upstream.Scheme, h.upstream.Host
		u.Path = joinPath(h.upstream.Path, r.URL.Path)
		u.RawPath = ""
		if r.URL.RawPath != "" {
			u.RawPath = joinPath(h.upstream.EscapedPath(), r.URL.RawPath)
		}
	} else {
		u.Scheme, u.Host = "http", r.Host
	}
	out := r.WithContext(r.Context()) // a shallow copy: the header is only read
	out.URL, out.Host, out.RequestURI = &u, u.Host, ""
	var resp *http.Response
	var err error
	if rec, ok := h.rt.(*Recorder); ok {
		resp, err = rec.roundTrip(out, true) // the header is only copied below
	} else {
		resp, err = h.rt.RoundTrip(out)
	}
	if err != nil {
		// Without the proxy the client would have seen its connection fail;
		// so it does now.
		panic(http.ErrAbortHandler)
	}
	defer resp.Body.Close()
	replayed, _ := resp.Body.(*replayBody)
	dst := w.Header()
	for k, vs := range resp.Header {
		dst[k] = vs
	}
	if replayed == nil {
		dropHopByHop(dst) // a replayed header has none left (served)
	}
	if _, ok := dst["Content-Type"]; !ok {
		dst["Content-Type"] = nil // do not let net/http guess one
	}
	if resp.ContentLength >= 0 {
		dst.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
	w.WriteHeader(resp.StatusCode)
	// A body of unknown length may be a stream: send each piece as it comes.
	// A body of known length is sent when complete, in as few writes as can be.
	rc := http.NewResponseController(w)
	live := resp.ContentLength < 0
	if t, ok := resp.Body.(*tee); ok {
		live = t.live // recorded bodies all go chunked; only streams go piece by piece
	}
	if live {
		rc.Flush()
	}
	if replayed != nil && !live {
		replayed.writeAll(w) // due at once and whole: no buffer between
		return
	}
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf := *bp
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return // the client went away; closing the body records that
			}
			if live {
				rc.Flush()
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			// The body broke off upstream: break it off for the client too,
			// after what came of it, rather than end it as if it were
			// complete.
			rc.Flush()
			panic(http.ErrAbortHandler)
		}
	}
}

func joinPath(base, p string) string {
	switch {
	case base == "" || base == "/":
		return p
	case strings.HasSuffix(base, "/") && strings.HasPrefix(p, "/"):
		return base + p[1:]
	case !strings.HasSuffix(base, "/") && !strings.HasPrefix(p, "/"):
		return base + "/" + p
	}
	return base + p
}
