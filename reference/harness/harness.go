// Package harness is the reference agent loop: it compiles the transcript,
// sends it through a provider codec over HTTP, applies the reply as typed
// mutations, runs the requested tools under permissions, and repeats,
// reporting everything as an event stream.
package harness

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/traffic"
)

// Config says which provider to talk to and how.
type Config struct {
	// BaseURL is the provider's origin, e.g. "https://api.anthropic.com", or
	// a replay server's; the wire's own path is appended.
	BaseURL string
	// Wire picks the codec: the loop runs on all four wires. On the
	// Responses wire it is stateless (store:false, the whole history resent,
	// encrypted reasoning included); on Gemini, calls without an id get a
	// local one (LocalCallIDPrefix) that never goes on the wire.
	Wire   traffic.Wire
	Model  string
	APIKey string // sent in the wire's auth header when set
	// MaxTokens is the response budget; 0 means 1024.
	MaxTokens int
	Stream    bool
	Thinking  *traffic.Thinking
	// Header is added to every request (anthropic-beta…).
	Header http.Header
	// Models are the models the harness supports (supportedModels of
	// docs/reference-model.md, seed 004); nil means Model alone.
	Models []string
	// Redaction scrubs reasoning text in the events observers and audit
	// logs get; what is sent to the provider is never redacted.
	Redaction engine.RedactionPolicy
	// ReplayTags are the thought tags this adapter replays; nil means
	// engine.ReplayTags(Wire).
	ReplayTags []string
	HTTPClient *http.Client // nil means http.DefaultClient
	// MaxDepth bounds sub-agent nesting; 0 means 2.
	MaxDepth int
	// Retries is how many times a failed call is tried again, as the
	// official SDKs do: a rate limit, an overload, a server error, an error
	// mid-stream or a dropped connection. The retry sends the same request
	// and keeps nothing of the failed answer. 0 means none.
	Retries int
	// RetryBackoff is the first wait between attempts when the answer asks
	// for none (retry-after-ms, retry-after), doubled each time.
	RetryBackoff time.Duration
}

// Harness runs loops against one provider.
type Harness struct {
	cfg   Config
	codec providers.Codec
}

// New checks cfg and returns its harness.
func New(cfg Config) (*Harness, error) {
	codec := providers.For(cfg.Wire)
	if codec == nil {
		return nil, fmt.Errorf("harness: no codec for wire %q", cfg.Wire)
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("harness: base URL %q is not an absolute URL", cfg.BaseURL)
	}
	cfg.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = 1024
	}
	if cfg.ReplayTags == nil {
		cfg.ReplayTags = engine.ReplayTags(cfg.Wire)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = 2
	}
	return &Harness{cfg: cfg, codec: codec}, nil
}

// Params are one invocation's inputs (GeneratorInvokeParams of
// docs/reference-model.md, seed 004).
type Params struct {
	// Model is this invocation's model (the invoke model of
	// docs/reference-model.md, seed 004); "" means Config.Model. It is not
	// checked against SupportedModels: the provider says which models it
	// serves.
	Model string
	// ParentID is the id this run's events carry as parentId (env.parentId
	// of docs/reference-model.md, seed 004): the call or run that started
	// it, when it is part of a larger one. A sub-agent gets its spawning
	// call's id.
	ParentID string
	// Spawn, when set, is what a tool's ToolContext.Spawn calls, with the
	// spawning call's id as parentID (env.spawn(task, parentId) of
	// docs/reference-model.md, seed 004); nil means a sub-agent of this
	// harness on the same provider.
	Spawn func(ctx context.Context, task, parentID string) (string, error)
	// Messages is the starting transcript: system prompt, history and the
	// new user message. Ephemeral ones are sent with the first request only.
	Messages    []traffic.Message
	Tools       []engine.ToolDefinition
	Permissions engine.Permissions
	// Thoughts are routed for this adapter's wire and tags as each request
	// is compiled, and never enter the history (so never the Store); the
	// elided ones are reported in Run.Dispatch.
	Thoughts []engine.Thought
	// Context is more context for the model (the invoke context of
	// docs/reference-model.md, seed 004): it is sent as a system message after
	// the given ones.
	Context string
	// FileTime is handed to every tool (ToolContext.FileTime) of the run and
	// its sub-agents; nil means a fresh one (env.fileTime of
	// docs/reference-model.md, seed 004).
	FileTime *engine.FileTime
	// MaxIterations bounds model calls; 0 means 10.
	MaxIterations int
	// Hook returns hook-phase mutations at the start of each iteration.
	Hook func(iteration int, history []traffic.Message) []engine.Mutation
	// Store, when set, receives the history (never an ephemeral message)
	// when the run ends, under ConversationID.
	Store          store.MessageStore
	ConversationID string

	depth int
	gate  *engine.PermissionGate // shared with sub-agents
}

// Run is one invocation. Consume Events once; afterwards Transcript holds
// the history, valid whether the run finished, hit its limit or was
// cancelled.
type Run struct {
	h         *Harness
	p         Params
	ctx       context.Context
	cancel    context.CancelFunc
	tr        *engine.Transcript
	box       *engine.Toolbox
	gate      *engine.PermissionGate
	runID     string
	max       int
	usage     engine.TokenUsage
	out       func(engine.Event) bool // where events go: the consumer, or the parent run
	stopped   bool                    // the consumer stopped listening
	started   bool
	final     string // text of the last assistant message
	endedBy   engine.EndReason
	dispatch  engine.Dispatch
	thoughts  []engine.Thought // from the run's replies
	announced map[string]bool  // tool calls whose tool_call event was sent
}

// SupportedModels lists the models the harness supports
// (docs/reference-model.md, seed 004).
func (h *Harness) SupportedModels() []string {
	if len(h.cfg.Models) > 0 {
		return slices.Clone(h.cfg.Models)
	}
	if h.cfg.Model != "" {
		return []string{h.cfg.Model}
	}
	return nil
}

// Start checks p (tool schemas, permission globs, the starting transcript)
// and prepares a run; nothing is sent until Events is ranged over.
func (h *Harness) Start(ctx context.Context, p Params) (*Run, error) {
	box, err := engine.NewToolbox(p.Tools...)
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	gate := p.gate
	if gate == nil {
		if gate, err = engine.NewPermissionGate(p.Permissions); err != nil {
			return nil, fmt.Errorf("harness: permissions: %w", err)
		}
	}
	if p.FileTime == nil {
		p.FileTime = &engine.FileTime{}
	}
	if p.Model == "" {
		p.Model = h.cfg.Model
	}
	start := p.Messages
	if p.Context != "" {
		n := 0
		for n < len(start) && start[n].Role == traffic.RoleSystem {
			n++
		}
		extra := traffic.Message{Role: traffic.RoleSystem, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: p.Context}}}
		start = slices.Concat(start[:n], []traffic.Message{extra}, start[n:])
	}
	tr, err := engine.NewTranscript(start...)
	if err != nil {
		return nil, fmt.Errorf("harness: starting transcript: %w", err)
	}
	if len(tr.Pending()) > 0 {
		return nil, fmt.Errorf("harness: starting transcript: %w", engine.ErrPendingToolCalls)
	}
	if p.Store != nil && p.ConversationID == "" {
		return nil, fmt.Errorf("harness: a Store needs a ConversationID")
	}
	r := &Run{h: h, p: p, tr: tr, box: box, gate: gate, runID: newRunID(), max: p.MaxIterations}
	if r.max <= 0 {
		r.max = 10
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	return r, nil
}

// Events runs the loop as it is ranged over: harness_start first,
// harness_end last. Breaking out of the range cancels the run, which still
// closes its transcript (every tool call gets a result). A second call
// yields nothing.
func (r *Run) Events() iter.Seq[engine.Event] {
	return func(yield func(engine.Event) bool) {
		if r.started {
			return
		}
		r.started = true
		r.out = yield
		r.run()
	}
}

// Transcript is the run's transcript.
func (r *Run) Transcript() *engine.Transcript { return r.tr }

// ID is the run id its events carry.
func (r *Run) ID() string { return r.runID }

// Dispatch says where the invocation's thoughts went in the latest request.
func (r *Run) Dispatch() engine.Dispatch { return r.dispatch }

// Thoughts is the run's durable reasoning context
// (docs/reference-model.md, seed 003): every thought it was given, the ones
// elided for this adapter included, then one per reasoning block of the run's
// own replies, so a later dispatch to another adapter can pick up what this one
// could not replay.
func (r *Run) Thoughts() []engine.Thought {
	return slices.Concat(r.p.Thoughts, r.thoughts)
}

// keepThoughts adds the reasoning blocks of iteration's reply to the run's
// thoughts, each tagged for the wire it came from.
func (r *Run) keepThoughts(iteration int, msgs []traffic.Message) {
	now := time.Now()
	for m, msg := range msgs {
		for b, blk := range msg.Blocks {
			raw := engine.RawThought{ID: fmt.Sprintf("%s-%d-%d-%d", r.runID, iteration, m, b), Content: blk.Text, CreatedAt: now, UpdatedAt: now}
			if th, ok := engine.ThoughtFromBlock(blk, raw); ok {
				r.thoughts = append(r.thoughts, th)
			}
		}
	}
}

// EndReason is why the run ended; "" before it has.
func (r *Run) EndReason() engine.EndReason { return r.endedBy }

func newRunID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return "run_" + hex.EncodeToString(b)
}

func (r *Run) header() engine.EventHeader {
	return engine.EventHeader{RunID: r.runID, ParentID: r.p.ParentID}
}

// emit sends ev on; once the consumer stops, nothing more is sent and the
// run's context is cancelled so a request or tool in flight stops.
func (r *Run) emit(ev engine.Event) bool {
	if r.stopped {
		return false
	}
	if !r.out(ev) {
		r.stopped = true
		r.cancel()
		return false
	}
	return true
}
