package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// ToolDefinition is a tool the model may call
// (docs/reference-model.md, seed 004).
type ToolDefinition struct {
	Name        string
	Description string // shown to the model
	// Schema is the JSON Schema of the input object; nil means any object.
	Schema json.RawMessage
	// Execute runs the tool on arguments that passed Schema: the exact JSON
	// object text the model produced. Nil means the tool cannot run here.
	Execute func(ctx context.Context, args json.RawMessage, tc ToolContext) (ToolExecutionResult, error)
	// DerivePermission maps arguments to the request matched against
	// Permissions. Nil means the tool's name and its top-level scalar
	// arguments (strings unquoted, numbers and booleans as written).
	DerivePermission func(args json.RawMessage) (ToolPermission, error)
}

// ToolExecutionResult is what a tool returns.
type ToolExecutionResult struct {
	Context string // injected into the model's context window
	Result  any    // for the harness or application only; never sent
	// Media holds image or document blocks the model should see. Most
	// providers take media only in user messages, so a result with media is
	// applied as a MultimodalToolResult.
	Media []traffic.Block
}

// ToolContext is passed to Execute.
type ToolContext struct {
	RunID    string
	ParentID string // the id of the tool call this execution answers
	Depth    int    // 0 for the top-level loop, +1 per spawned sub-agent
	// Spawn runs task in a sub-agent whose events carry ParentID and
	// Depth+1, and returns its final text.
	Spawn func(ctx context.Context, task string) (string, error)
	// Mutate proposes a tool-phase mutation (remember, forget, compact…);
	// it is applied with the iteration's tool mutations.
	Mutate func(Mutation) error
	// Progress reports partial output as a tool_progress event.
	Progress func(content any)
	// Emit sends another event of the tool's, such as the REPL events of
	// a tool that runs code, with a header of RunID and ParentID.
	Emit func(Event)
	// FileTime tracks file timestamps for deterministic execution (seed
	// 004's fileTime), shared by the run and its sub-agents.
	FileTime *FileTime
}

// FileTime records when a run read each file, so a tool can tell, before it
// writes, whether the file changed since (ToolContext.fileTime of
// docs/reference-model.md, seed 004). It is safe for concurrent use; the zero
// value is ready.
type FileTime struct {
	mu   sync.Mutex
	read map[string]time.Time
}

// Record notes that path was read when its modification time was t.
func (f *FileTime) Record(path string, t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.read == nil {
		f.read = map[string]time.Time{}
	}
	f.read[path] = t
}

// Read returns the modification time path had when it was last read.
func (f *FileTime) Read(path string) (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.read[path]
	return t, ok
}

// ErrUnknownTool is returned for a call naming no defined tool.
var ErrUnknownTool = errors.New("unknown tool")

// ToolInputError says why a call's arguments do not fit the tool's schema.
type ToolInputError struct {
	Tool     string
	Location string // JSON pointer into the arguments, "" for the whole
	Message  string
}

func (e *ToolInputError) Error() string {
	loc := e.Location
	if loc == "" {
		loc = "/"
	}
	return fmt.Sprintf("tool %s: arguments at %s: %s", e.Tool, loc, e.Message)
}

// Toolbox holds tool definitions with their compiled schemas.
type Toolbox struct {
	tools []boxTool
	index map[string]int
}

type boxTool struct {
	def    ToolDefinition
	schema *jsonschema.Schema
}

// NewToolbox compiles each tool's schema; a bad schema or a duplicate name
// is an error naming the tool.
func NewToolbox(defs ...ToolDefinition) (*Toolbox, error) {
	b := &Toolbox{index: map[string]int{}}
	for i, d := range defs {
		if d.Name == "" {
			return nil, fmt.Errorf("tools[%d]: empty name", i)
		}
		if _, dup := b.index[d.Name]; dup {
			return nil, fmt.Errorf("tools[%d]: tool %s defined twice", i, d.Name)
		}
		schema := d.Schema
		if len(bytes.TrimSpace(schema)) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
		if err != nil {
			return nil, fmt.Errorf("tool %s: schema is not JSON: %w", d.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		url := fmt.Sprintf("mem:///tools/%d.json", i)
		if err := c.AddResource(url, doc); err != nil {
			return nil, fmt.Errorf("tool %s: schema: %w", d.Name, err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("tool %s: schema: %w", d.Name, err)
		}
		b.index[d.Name] = len(b.tools)
		b.tools = append(b.tools, boxTool{def: d, schema: sch})
	}
	return b, nil
}

// Get returns the definition named name.
func (b *Toolbox) Get(name string) (ToolDefinition, bool) {
	i, ok := b.index[name]
	if !ok {
		return ToolDefinition{}, false
	}
	return b.tools[i].def, true
}

// Tools returns the definitions as the model's tool list, in order.
func (b *Toolbox) Tools() []traffic.Tool {
	out := make([]traffic.Tool, len(b.tools))
	for i, t := range b.tools {
		schema := t.def.Schema
		if len(bytes.TrimSpace(schema)) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		out[i] = traffic.Tool{Name: t.def.Name, Description: t.def.Description, Schema: schema}
	}
	return out
}

// Validate checks a call's input against the tool's schema and returns the
// arguments object (see ToolArguments), bytes untouched.
func (b *Toolbox) Validate(name string, input json.RawMessage) (json.RawMessage, error) {
	i, ok := b.index[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownTool, name)
	}
	args, err := ToolArguments(input)
	if err != nil {
		return nil, &ToolInputError{Tool: name, Message: err.Error()}
	}
	// The decoded copy only feeds the validator; args stay raw.
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, &ToolInputError{Tool: name, Message: "not valid JSON: " + err.Error()}
	}
	if err := b.tools[i].schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return nil, schemaError(name, ve)
		}
		return nil, &ToolInputError{Tool: name, Message: err.Error()}
	}
	return args, nil
}

// schemaError keeps the first leaf failure, which names the deepest value.
func schemaError(tool string, ve *jsonschema.ValidationError) *ToolInputError {
	out := ve.BasicOutput()
	var msgs []string
	loc := ""
	for _, u := range out.Errors {
		if u.Error == nil {
			continue
		}
		if loc == "" {
			loc = u.InstanceLocation
		}
		if u.InstanceLocation == loc {
			msgs = append(msgs, u.Error.String())
		}
	}
	if len(msgs) == 0 && out.Error != nil {
		msgs = append(msgs, out.Error.String())
	}
	return &ToolInputError{Tool: tool, Location: loc, Message: strings.Join(msgs, "; ")}
}

// Permission derives the permission request of a call. Arguments whose
// keys collide (the same key twice, or keys equal but for case) are refused
// first: the gate would judge one value while a tool decoding them with
// encoding/json, which matches keys case-insensitively and keeps the last,
// is handed another ({"path":"src/a.go","PATH":"../secrets/.env"}).
func (b *Toolbox) Permission(name string, args json.RawMessage) (ToolPermission, error) {
	if err := collidingKeys("arguments", args); err != nil {
		return ToolPermission{Tool: name}, fmt.Errorf("tool %s: %w", name, err)
	}
	if d, ok := b.Get(name); ok && d.DerivePermission != nil {
		return d.DerivePermission(args)
	}
	return DefaultPermission(name, args)
}

// DefaultPermission is the request of a call: the tool name and each
// top-level scalar argument as text.
func DefaultPermission(name string, args json.RawMessage) (ToolPermission, error) {
	p := ToolPermission{Tool: name}
	fields, err := rawjson.Fields(args)
	if err != nil {
		return p, fmt.Errorf("tool %s: arguments: %w", name, err)
	}
	for _, f := range fields {
		switch rawjson.Kind(f.Value) {
		case "string":
			s, _ := rawjson.String(f.Value)
			p.set(f.Key, s)
		case "number", "boolean":
			p.set(f.Key, string(f.Value))
		}
	}
	return p, nil
}

// collidingKeys finds, in every object of raw, two keys equal but for case.
func collidingKeys(path string, raw json.RawMessage) error {
	switch rawjson.Kind(raw) {
	case "object":
		fields, err := rawjson.Fields(raw)
		if err != nil {
			return err
		}
		seen := make(map[string]string, len(fields))
		for _, f := range fields {
			folded := strings.ToLower(f.Key)
			if first, dup := seen[folded]; dup {
				return rawjson.Errorf(path, "keys %q and %q collide (a case-insensitive decoder reads only one of them); refused", first, f.Key)
			}
			seen[folded] = f.Key
			if err := collidingKeys(rawjson.At(path, f.Key), f.Value); err != nil {
				return err
			}
		}
	case "array":
		items, err := rawjson.Array(raw)
		if err != nil {
			return err
		}
		for i, it := range items {
			if err := collidingKeys(rawjson.Index(path, i), it); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *ToolPermission) set(k, v string) {
	if p.Params == nil {
		p.Params = map[string]string{}
	}
	p.Params[k] = v
}

// ToolArguments returns the arguments object of a tool call input as the
// wires carry it: an object (Anthropic, Gemini), or a JSON string holding
// the object's text (OpenAI), which is unquoted so the model's exact text
// comes back. Empty input is the empty object.
func ToolArguments(input json.RawMessage) (json.RawMessage, error) {
	in := bytes.TrimSpace(input)
	if len(in) == 0 {
		return json.RawMessage("{}"), nil
	}
	if in[0] == '"' {
		s, ok := rawjson.String(in)
		if !ok {
			return nil, errors.New("arguments string is not a valid JSON string")
		}
		in = bytes.TrimSpace([]byte(s))
		if len(in) == 0 {
			return json.RawMessage("{}"), nil
		}
	}
	if k := rawjson.Kind(in); k != "object" {
		return nil, fmt.Errorf("arguments must be a JSON object, found %s", k)
	}
	if !rawjson.Valid(in) {
		return nil, errors.New("arguments are not valid JSON")
	}
	return json.RawMessage(in), nil
}
