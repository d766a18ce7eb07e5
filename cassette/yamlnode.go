package cassette

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// yamlDoc is a parsed YAML recording. Every node is reached through node(),
// which follows aliases and charges a visit budget, so a document built from
// aliases (a "billion laughs") or an alias cycle fails fast instead of
// expanding.
type yamlDoc struct {
	file   string
	root   *yaml.Node // the top-level mapping
	visits int
	budget int
	failed *Error // first budget error, reported once
}

// maxDepth bounds nesting when converting a parsed_body to JSON, the one
// recursive walk; encoding/json and yaml.v3 stop at the same depth.
const maxDepth = 10000

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// parseYAML parses data into a node tree. No tag is acted on: yaml.v3 only
// records tags in the tree, and the readers treat unknown ones as plain
// values.
func parseYAML(name string, data []byte) (doc *yamlDoc, err error) {
	var top yaml.Node
	defer func() {
		// yaml.v3 has panicked on hostile input before; never let that out.
		if r := recover(); r != nil {
			doc, err = nil, errorf(name, 0, "invalid YAML: parser failed: %v", r)
		}
	}()
	if err := yaml.Unmarshal(data, &top); err != nil {
		return nil, yamlError(name, err)
	}
	if top.Kind == 0 || len(top.Content) == 0 {
		return nil, errorf(name, 0, "empty YAML document, expected a mapping with `interactions`")
	}
	// A node takes at least a byte and a half of YAML ("a:\n" is a key and
	// a null), so without aliases there are fewer visits than bytes.
	d := &yamlDoc{file: name, budget: len(data) + 1<<16}
	root, err := d.node(top.Content[0])
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.errorf(root, "expected a mapping with `interactions` at the top, found %s", kindName(root))
	}
	d.root = root
	return d, nil
}

// yamlError turns a yaml.v3 error into an *Error with the line it names.
func yamlError(name string, err error) *Error {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return errorf(name, line, "invalid YAML: %s", msg)
}

func (d *yamlDoc) errorf(n *yaml.Node, format string, args ...any) *Error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return errorf(d.file, line, format, args...)
}

// node follows aliases and charges one visit. It fails once the budget is
// spent, which only alias expansion can do: without aliases every node is
// visited about once and there are fewer nodes than input bytes.
func (d *yamlDoc) node(n *yaml.Node) (*yaml.Node, error) {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops > 100 || n.Alias == nil {
			return nil, d.errorf(n, "alias *%s leads nowhere", n.Value)
		}
		n = n.Alias
	}
	d.visits++
	if d.visits > d.budget {
		if d.failed == nil {
			d.failed = d.errorf(n, "too many aliases: expanding them would visit more than %d nodes", d.budget)
		}
		return nil, d.failed
	}
	return n, nil
}

// kindName describes a node for "expected X, found Y" messages.
func kindName(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		if isNull(n) {
			return "null"
		}
		return fmt.Sprintf("the scalar %q", clip(n.Value, 40))
	}
	return "a document"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// field is a mapping entry: its key node (for lines) and its value.
type field struct {
	key   *yaml.Node
	value *yaml.Node
}

// fields returns m's entries keyed by name, in order, following aliases.
// A null node is an empty mapping. Later duplicates win, as in yaml.v3.
func (d *yamlDoc) fields(m *yaml.Node, what string) (map[string]field, []string, error) {
	m, err := d.node(m)
	if err != nil {
		return nil, nil, err
	}
	if isNull(m) {
		return map[string]field{}, nil, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, nil, d.errorf(m, "expected a mapping for %s, found %s", what, kindName(m))
	}
	out := make(map[string]field, len(m.Content)/2)
	var order []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, err := d.node(m.Content[i])
		if err != nil {
			return nil, nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, nil, d.errorf(k, "expected a string key in %s, found %s", what, kindName(k))
		}
		if _, dup := out[k.Value]; !dup {
			order = append(order, k.Value)
		}
		out[k.Value] = field{key: k, value: m.Content[i+1]}
	}
	return out, order, nil
}

// items returns a sequence's elements. A null node is an empty sequence.
func (d *yamlDoc) items(n *yaml.Node, what string) ([]*yaml.Node, error) {
	n, err := d.node(n)
	if err != nil {
		return nil, err
	}
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "expected a sequence for %s, found %s", what, kindName(n))
	}
	return n.Content, nil
}

// str reads a scalar as text. A null is "". A !!binary (YAML) or !binary
// (Ruby) tag means base64, which is decoded; any other tag is ignored.
func (d *yamlDoc) str(n *yaml.Node, what string) (string, error) {
	n, err := d.node(n)
	if err != nil {
		return "", err
	}
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", d.errorf(n, "expected a string for %s, found %s", what, kindName(n))
	}
	switch n.ShortTag() {
	case "!!binary", "!binary":
		b, err := decodeBase64(n.Value)
		if err != nil {
			return "", d.errorf(n, "%s: invalid base64 in a binary value: %v", what, err)
		}
		return string(b), nil
	}
	return n.Value, nil
}

// decodeBase64 decodes standard base64, ignoring the line breaks and spaces
// that YAML block scalars put in.
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r':
			return -1
		}
		return r
	}, s)
	return base64.StdEncoding.DecodeString(s)
}

// integer reads a scalar as a whole number.
func (d *yamlDoc) integer(n *yaml.Node, what string) (int, error) {
	s, err := d.str(n, what)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, d.errorf(n, "expected a whole number for %s, found %q", what, clip(s, 40))
	}
	return v, nil
}
