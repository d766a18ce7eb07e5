package engine

import (
	"fmt"
	"sync"
)

// ToolPermission names a tool and, optionally, glob patterns its parameters
// must match (docs/reference-model.md, seed 004). Patterns are matched as
// minimatch matches them, on values cleaned as paths (see glob): "src/**"
// matches "src/a/b.go" but not "src/.env", "src" or "src/../secrets/x". The
// tool name is a glob too ("*" matches every tool).
type ToolPermission struct {
	Tool   string            `json:"tool"`
	Params map[string]string `json:"params,omitempty"`
}

// Denial refuses one tool call by id.
type Denial struct {
	ToolCallID string `json:"toolCallId"`
	Reason     string `json:"reason,omitempty"`
}

// Permissions is the permission configuration of one invocation.
type Permissions struct {
	Allowlist []ToolPermission `json:"allowlist,omitempty"` // always allowed
	AllowOnce []ToolPermission `json:"allowOnce,omitempty"` // allowed once each, then relayed
	Deny      []Denial         `json:"deny,omitempty"`
}

// Verdict is what the gate decides for a call.
type Verdict string

const (
	Allow Verdict = "allow"
	Deny  Verdict = "deny"
	Relay Verdict = "relay" // ask the application: a relay permission event
)

// Decision is a verdict and the rule that gave it.
type Decision struct {
	Verdict Verdict
	Rule    string // "deny[0]", "allowlist[2]", "allowOnce[1]", "" for relay
	Reason  string // a denial's reason
}

// PermissionResponse answers a relayed permission request.
type PermissionResponse struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// PermissionGate decides calls in the documented order: deny by call id
// first, then the allowlist, then allow-once (each entry consumed by the
// first call it allows), else relay. It is safe for concurrent use.
type PermissionGate struct {
	mu    sync.Mutex
	p     Permissions
	used  []bool
	globs map[string]*glob // every pattern of p, compiled
}

// NewPermissionGate checks every pattern of p and returns its gate.
func NewPermissionGate(p Permissions) (*PermissionGate, error) {
	globs := map[string]*glob{}
	compile := func(pat string) error {
		if globs[pat] != nil {
			return nil
		}
		g, err := compileGlob(pat)
		globs[pat] = g
		return err
	}
	for name, list := range map[string][]ToolPermission{"allowlist": p.Allowlist, "allowOnce": p.AllowOnce} {
		for i, r := range list {
			if err := compile(r.Tool); err != nil {
				return nil, fmt.Errorf("%s[%d].tool: %q is not a tool name or glob: %v", name, i, r.Tool, err)
			}
			for k, pat := range r.Params {
				if err := compile(pat); err != nil {
					return nil, fmt.Errorf("%s[%d].params.%s: %q is not a valid glob: %v", name, i, k, pat, err)
				}
			}
		}
	}
	for i, d := range p.Deny {
		if d.ToolCallID == "" {
			return nil, fmt.Errorf("deny[%d].toolCallId: empty", i)
		}
	}
	return &PermissionGate{p: p, used: make([]bool, len(p.AllowOnce)), globs: globs}, nil
}

// Decide decides the call callID whose request is req.
func (g *PermissionGate) Decide(callID string, req ToolPermission) Decision {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, d := range g.p.Deny {
		if d.ToolCallID == callID {
			return Decision{Verdict: Deny, Rule: fmt.Sprintf("deny[%d]", i), Reason: d.Reason}
		}
	}
	for i, r := range g.p.Allowlist {
		if r.matches(req, g.globs) {
			return Decision{Verdict: Allow, Rule: fmt.Sprintf("allowlist[%d]", i)}
		}
	}
	for i, r := range g.p.AllowOnce {
		if !g.used[i] && r.matches(req, g.globs) {
			g.used[i] = true
			return Decision{Verdict: Allow, Rule: fmt.Sprintf("allowOnce[%d]", i)}
		}
	}
	return Decision{Verdict: Relay}
}

// Matches reports whether the rule r covers the request req: the tool name
// matches and every constrained parameter is present and matches its glob.
// A pattern that does not compile matches nothing.
func (r ToolPermission) Matches(req ToolPermission) bool { return r.matches(req, nil) }

func (r ToolPermission) matches(req ToolPermission, compiled map[string]*glob) bool {
	match := func(pat, v string) bool {
		g := compiled[pat]
		if g == nil {
			var err error
			if g, err = compileGlob(pat); err != nil {
				return false
			}
		}
		return g.match(v)
	}
	if !match(r.Tool, req.Tool) {
		return false
	}
	for k, pat := range r.Params {
		v, ok := req.Params[k]
		if !ok || !match(pat, v) {
			return false
		}
	}
	return true
}
