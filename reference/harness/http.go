package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/traffic"
)

// reply is what one model call gave.
type reply struct {
	// msgs is the reply as the transcript keeps it: one assistant message,
	// or one per item on the Responses wire.
	msgs    []traffic.Message
	usage   engine.TokenUsage
	partial string      // text received before the call failed
	header  http.Header // the answer's headers
}

// call sends the compiled transcript and decodes the answer. A stream is
// read to its end (or until the context ends) and decoded whole.
func (r *Run) call(iteration int) (reply, error) {
	cfg := r.h.cfg
	c, err := r.tr.Compile(r.p.Thoughts, cfg.Wire, cfg.ReplayTags)
	if err != nil {
		return reply{}, err
	}
	r.dispatch = c.Thoughts
	req := &traffic.Request{Wire: cfg.Wire, Model: r.p.Model, MaxTokens: cfg.MaxTokens, Stream: cfg.Stream, Thinking: cfg.Thinking}
	req.System, req.Messages = shape(cfg.Wire, c.System, c.Messages)
	if cfg.Wire == traffic.WireResponses {
		stateless := false
		req.Store, req.Include = &stateless, responsesInclude
	}
	if tools := r.box.Tools(); len(tools) > 0 {
		req.Tools = tools
	}
	if side := engine.SideChannel(c.Thoughts.Side); side != nil {
		// Thoughts whose tag the adapter declares but its wire has no
		// channel for ride along under the documented key
		// (docs/reference-model.md, seed 003).
		rawjson.SetExtra(&req.Extra, engine.SideChannelKey, side)
	}
	body, err := r.h.codec.EncodeRequest(req)
	if err != nil {
		return reply{}, fmt.Errorf("encoding the request: %w", err)
	}
	url := endpoint(cfg, r.p.Model)
	for attempt := 0; ; attempt++ {
		rep, err, again := r.send(url, body, iteration)
		if err == nil || !again || attempt >= cfg.Retries || r.ctx.Err() != nil {
			return rep, err
		}
		wait := retryWait(rep.header)
		if wait == 0 {
			wait = cfg.RetryBackoff << attempt
		}
		select {
		case <-r.ctx.Done():
			return rep, err
		case <-time.After(wait):
		}
	}
}

// send makes one attempt at a call; again reports a failure worth trying
// again (a rate limit, an overload, a server error, a stream that failed or
// was cut), whose answer carried nothing to keep.
func (r *Run) send(url string, body []byte, iteration int) (rep reply, err error, again bool) {
	cfg := r.h.cfg
	hreq, err := http.NewRequestWithContext(r.ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return reply{}, err, false
	}
	setHeaders(hreq.Header, cfg)
	resp, err := cfg.HTTPClient.Do(hreq)
	if err != nil {
		return reply{}, fmt.Errorf("POST %s: %w", url, err), true
	}
	defer resp.Body.Close()
	rep.header = resp.Header
	data, readErr := io.ReadAll(resp.Body)
	decoded, decErr := r.h.codec.DecodeResponse(resp.StatusCode, resp.Header, data)
	if decoded != nil {
		rep.msgs = replyOf(cfg.Wire, decoded)
		r.nameCalls(iteration, rep.msgs)
		rep.usage = tokens(decoded.Usage)
	}
	var text string // what a failed call had said, partial items included
	if decoded != nil {
		text = textOf(decoded.Output)
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	switch {
	case readErr != nil:
		rep.partial = text
		return rep, fmt.Errorf("reading the response of POST %s: %w", url, readErr), true
	case decErr != nil:
		return rep, fmt.Errorf("POST %s: HTTP %d: %w", url, resp.StatusCode, decErr), retryStatus(resp.StatusCode)
	case decoded.Error != nil:
		rep.partial = text
		return rep, fmt.Errorf("POST %s: HTTP %d: %s: %s", url, resp.StatusCode, decoded.Error.Type, decoded.Error.Message), retryStatus(resp.StatusCode) || ok && retryType(decoded.Error)
	case !ok:
		return rep, fmt.Errorf("POST %s: HTTP %d", url, resp.StatusCode), retryStatus(resp.StatusCode)
	case decoded.Stream != nil && !decoded.Stream.Complete:
		rep.partial = text
		return rep, errors.New("the stream ended before its terminal event"), true
	}
	return rep, nil, false
}

// retryStatus reports a status the official SDKs retry: 408, 409, 429 and
// every 5xx (Anthropic's 529 overloaded included).
func retryStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict || status == http.StatusTooManyRequests || status >= 500
}

// retryType reports an error inside a stream that was accepted (HTTP 200)
// as one a retry may get past: an overload, a rate limit or a server error,
// not a refusal of the request.
func retryType(e *traffic.APIError) bool {
	switch strings.ToLower(e.Type + " " + e.Code) {
	case "overloaded_error ", "api_error ", "rate_limit_error ":
		return true
	}
	t := strings.ToLower(e.Type + " " + e.Code)
	for _, k := range []string{"server_error", "unavailable", "internal", "resource_exhausted", "throttling", "serviceunavailable", "internalserver", "modelstreamerror", "overloaded"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}

// retryWait is what a failed answer's headers ask a retry to wait:
// retry-after-ms, else retry-after in seconds or as an HTTP date.
func retryWait(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if sec, err := strconv.ParseFloat(v, 64); err == nil && sec > 0 {
		return time.Duration(sec * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

func endpoint(cfg Config, model string) string {
	switch cfg.Wire {
	case traffic.WireOpenAI:
		return cfg.BaseURL + "/v1/chat/completions"
	case traffic.WireResponses:
		return cfg.BaseURL + "/v1/responses"
	case traffic.WireGemini:
		if cfg.Stream {
			return cfg.BaseURL + "/v1beta/models/" + model + ":streamGenerateContent?alt=sse"
		}
		return cfg.BaseURL + "/v1beta/models/" + model + ":generateContent"
	case traffic.WireBedrock:
		if cfg.Stream {
			return cfg.BaseURL + "/model/" + url.PathEscape(model) + "/converse-stream"
		}
		return cfg.BaseURL + "/model/" + url.PathEscape(model) + "/converse"
	}
	return cfg.BaseURL + "/v1/messages"
}

func setHeaders(h http.Header, cfg Config) {
	h.Set("Content-Type", "application/json")
	if cfg.Stream {
		h.Set("Accept", "text/event-stream")
	}
	switch cfg.Wire {
	case traffic.WireAnthropic:
		h.Set("Anthropic-Version", "2023-06-01")
		if cfg.APIKey != "" {
			h.Set("X-Api-Key", cfg.APIKey)
		}
	case traffic.WireGemini:
		if cfg.APIKey != "" {
			h.Set("X-Goog-Api-Key", cfg.APIKey)
		}
	default:
		if cfg.APIKey != "" {
			h.Set("Authorization", "Bearer "+cfg.APIKey)
		}
	}
	for k, vs := range cfg.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
}

func textOf(msgs []traffic.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		for _, bl := range m.Blocks {
			if bl.Type == traffic.BlockText {
				b.WriteString(bl.Text)
			}
		}
	}
	return b.String()
}

func tokens(u *traffic.Usage) engine.TokenUsage {
	if u == nil {
		return engine.TokenUsage{}
	}
	return engine.TokenUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheCreationTokens: u.CacheCreationTokens}
}
