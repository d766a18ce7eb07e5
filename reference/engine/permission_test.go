package engine

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

func req(tool string, kv ...string) ToolPermission {
	p := ToolPermission{Tool: tool, Params: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Params[kv[i]] = kv[i+1]
	}
	return p
}

func TestPermissionGate(t *testing.T) {
	perms := Permissions{
		Allowlist: []ToolPermission{
			{Tool: "read_file", Params: map[string]string{"path": "src/**"}},
			{Tool: "list_*"},
		},
		AllowOnce: []ToolPermission{
			{Tool: "write_file", Params: map[string]string{"path": "src/*.go"}},
		},
		Deny: []Denial{{ToolCallID: "toolu_bad", Reason: "not in this repo"}},
	}
	g, err := NewPermissionGate(perms)
	if err != nil {
		t.Fatal(err)
	}
	// One sequence: allow-once is consumed by the first call it allows.
	steps := []struct {
		call    string
		req     ToolPermission
		verdict Verdict
		rule    string
	}{
		{"c1", req("read_file", "path", "src/a/b/c.go"), Allow, "allowlist[0]"},
		{"c2", req("read_file", "path", "src"), Relay, ""}, // as minimatch: "src/**" needs something below src
		{"c3", req("read_file", "path", "/etc/passwd"), Relay, ""},
		{"c4", req("read_file", "path", "srcx/a.go"), Relay, ""},
		{"c5", req("read_file"), Relay, ""},                                  // constrained parameter missing
		{"toolu_bad", req("read_file", "path", "src/a.go"), Deny, "deny[0]"}, // deny wins over the allowlist
		{"c6", req("list_dir", "path", "/"), Allow, "allowlist[1]"},
		{"c7", req("write_file", "path", "src/a/b.go"), Relay, ""}, // "*" stays in one segment
		{"c8", req("write_file", "path", "src/main.go"), Allow, "allowOnce[0]"},
		{"c9", req("write_file", "path", "src/main.go"), Relay, ""}, // consumed
		{"c10", req("exec", "cmd", "ls"), Relay, ""},
	}
	for _, s := range steps {
		d := g.Decide(s.call, s.req)
		if d.Verdict != s.verdict || d.Rule != s.rule {
			t.Errorf("%s %+v: %+v, want %s %s", s.call, s.req, d, s.verdict, s.rule)
		}
	}
	if d := g.Decide("toolu_bad", req("x")); d.Reason != "not in this repo" {
		t.Errorf("denial reason %q", d.Reason)
	}
}

func TestPermissionGateAllowOnceUnderConcurrency(t *testing.T) {
	g, err := NewPermissionGate(Permissions{AllowOnce: []ToolPermission{{Tool: "deploy"}}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	allowed := 0
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g.Decide("c", req("deploy")).Verdict == Allow {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 1 {
		t.Errorf("allow-once allowed %d calls", allowed)
	}
}

func TestNewPermissionGateErrors(t *testing.T) {
	tests := []struct {
		p    Permissions
		want string
	}{
		{Permissions{Allowlist: []ToolPermission{{Tool: "read", Params: map[string]string{"path": "src/[z-a]"}}}}, `allowlist[0].params.path: "src/[z-a]" is not a valid glob`},
		{Permissions{AllowOnce: []ToolPermission{{}}}, "allowOnce[0].tool"},
		{Permissions{Deny: []Denial{{Reason: "x"}}}, "deny[0].toolCallId: empty"},
	}
	for _, tt := range tests {
		if _, err := NewPermissionGate(tt.p); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %s", err, tt.want)
		}
	}
}

// The bypasses the gate of docs/reference-model.md, seed 004, had: traversal,
// dotfiles, a folder matching its own "/**", and keys that differ only in case,
// which encoding/json hands to a tool as one field (the last).
func TestPermissionBypasses(t *testing.T) {
	g, err := NewPermissionGate(Permissions{Allowlist: []ToolPermission{
		{Tool: "read_file", Params: map[string]string{"path": "src/**"}},
		{Tool: "any_file", Params: map[string]string{"path": "**"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, args string
		allowed    bool
	}{
		{"read_file", `{"path":"src/a.go"}`, true},
		{"read_file", `{"path":"src/../secrets/.env"}`, false},
		{"read_file", `{"path":"src/.env"}`, false},
		{"read_file", `{"path":"src"}`, false},
		{"any_file", `{"path":"../etc/passwd"}`, false},
		{"any_file", `{"path":"a/../../etc/passwd"}`, false},
		{"any_file", `{"path":"docs/readme.md"}`, true},
	} {
		req, err := (&Toolbox{}).Permission(tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if got := g.Decide("c", req).Verdict == Allow; got != tc.allowed {
			t.Errorf("%s %s: allowed %t, want %t", tc.tool, tc.args, got, tc.allowed)
		}
	}

	// What a case-insensitive decoder makes of colliding keys.
	var in struct{ Path string }
	json.Unmarshal([]byte(`{"path":"src/a.go","PATH":"../secrets/.env"}`), &in)
	if in.Path != "../secrets/.env" {
		t.Fatalf("encoding/json gave %q: the premise changed", in.Path)
	}
	for _, args := range []string{
		`{"path":"src/a.go","PATH":"../secrets/.env"}`,
		`{"path":"src/a.go","path":"../secrets/.env"}`,
		`{"opts":[{"file":"src/a","File":"/etc/shadow"}]}`,
	} {
		_, err := (&Toolbox{}).Permission("read_file", json.RawMessage(args))
		if err == nil || !strings.Contains(err.Error(), "collide") {
			t.Errorf("%s: %v, want the colliding keys refused", args, err)
		}
	}
}
