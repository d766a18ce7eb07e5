package view

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// seen is one message the conversation already holds: sent in an earlier
// request or produced by an earlier response.
type seen struct {
	lines []string // describe's rendering, what a resent copy is compared with
	key   string   // the lines' hash
	where string   // "call 2's response", for the reader
	link  string   // the call's anchor
}

// describe renders a message as what the provider reads in it, one line
// per fact: the role, then each block's label and content. Two messages
// with the same lines are one message sent again; the lines are also what
// a changed message's diff shows. Wire-level form (a string or a block
// list, spacing of JSON, cache markers) is left out: it does not change
// what was said.
func describe(wire traffic.Wire, m *traffic.Message) []string {
	lines := []string{"role: " + roleOf(m)}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		lines = append(lines, "["+contentLabel(wire, b)+"]")
		if body := contentText(b); body != "" {
			lines = append(lines, strings.Split(body, "\n")...)
		}
	}
	return lines
}

// roleOf is a message's author; the items of a Responses history that carry
// no role (reasoning, function calls) are the model's.
func roleOf(m *traffic.Message) string {
	if m.Role != "" {
		return string(m.Role)
	}
	for _, b := range m.Blocks {
		if b.Type == traffic.BlockToolResult {
			return string(traffic.RoleTool)
		}
	}
	return string(traffic.RoleAssistant)
}

// contentLabel names a block by what identifies it: its kind, the tool and
// pairing key, the item id, and each opaque payload by size and hash.
func contentLabel(wire traffic.Wire, b *traffic.Block) string {
	parts := []string{string(b.Type)}
	if b.Type == traffic.BlockOther && b.WireType != "" {
		parts[0] = b.WireType
	}
	if b.Thought {
		parts = append(parts, "thought")
	}
	if b.Name != "" {
		parts = append(parts, "name "+b.Name)
	}
	if b.ID != "" {
		parts = append(parts, "id "+b.ID)
	}
	if b.ToolCallID != "" {
		parts = append(parts, "for "+b.ToolCallID)
	}
	if b.ItemID != "" {
		parts = append(parts, "item "+b.ItemID)
	}
	if b.IsError {
		parts = append(parts, "error")
	}
	if b.MediaType != "" {
		parts = append(parts, b.MediaType)
	}
	if len(b.Signature) > 0 {
		parts = append(parts, signatureName(wire)+" "+payload(wire, b.Signature))
	}
	if len(b.Data) > 0 {
		parts = append(parts, "data "+payload("", b.Data))
	}
	if len(b.EncryptedContent) > 0 {
		parts = append(parts, "encrypted_content "+payload("", b.EncryptedContent))
	}
	if b.Incomplete {
		parts = append(parts, "incomplete")
	}
	return strings.Join(parts, " · ")
}

func signatureName(wire traffic.Wire) string {
	if wire == traffic.WireGemini {
		return "thoughtSignature"
	}
	return "signature"
}

// contentText is a block's content as text: the text, tool arguments or
// result, a media source, or the raw block the model does not interpret.
// JSON values lose only insignificant whitespace.
func contentText(b *traffic.Block) string {
	var parts []string
	if b.Text != "" {
		parts = append(parts, b.Text)
	}
	for _, raw := range [][]byte{b.Input, b.ResultRaw, b.Source} {
		if len(raw) > 0 {
			parts = append(parts, compact(raw))
		}
	}
	for i := range b.Content {
		c := &b.Content[i]
		if c.Type == traffic.BlockText {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, "["+contentLabel("", c)+"] "+contentText(c))
		}
	}
	if b.Type == traffic.BlockOther && len(b.Raw) > 0 {
		parts = append(parts, compact(b.Raw))
	}
	return strings.Join(parts, "\n")
}

// payload is an opaque value's size, as recorded, and a short hash of what
// it stands for: the decoded string, and for a Gemini signature that
// string in one base64 alphabet without padding, so a signature re-encoded
// URL-safe reads the same.
func payload(wire traffic.Wire, raw []byte) string {
	val := raw
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if wire == traffic.WireGemini {
			s = base64Std.Replace(strings.TrimRight(s, "="))
		}
		val = []byte(s)
	}
	sum := sha256.Sum256(val)
	return size(raw) + " sha256:" + hex.EncodeToString(sum[:4])
}

var base64Std = strings.NewReplacer("-", "+", "_", "/")

// compact is a JSON value without insignificant whitespace, keys in their
// order; a value that is not JSON is kept as it is.
func compact(raw []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

func keyOf(lines []string) string {
	h := sha256.New()
	for _, l := range lines {
		fmt.Fprintf(h, "%d:%s\n", len(l), l)
	}
	return string(h.Sum(nil))
}

// step is what a request does with one message of the history it extends:
// sends it again unchanged, sends it changed, sends a new one, or leaves
// out one it held.
type step struct {
	kind   stepKind
	msg    int  // the request's message, for all but dropped
	before seen // what it was before, for changed and dropped
}

type stepKind int

const (
	stepSame stepKind = iota
	stepChanged
	stepNew
	stepDropped
)

// maxAlign bounds the table aligning the part of two histories that is not
// a common prefix or suffix; beyond it messages are compared by position.
const maxAlign = 1 << 20

// compare aligns a request's messages (their keys, roles in sent) with the
// history before it by content: the longest common subsequence, found past
// the common prefix and suffix. Between two aligned messages, a message
// sent where one of the same role was is that one changed; the rest are
// new or dropped. A request that shares no message with the history starts
// a new conversation: all its messages are new.
func compare(before []seen, sent []seen) []step {
	n, m := len(before), len(sent)
	pre := 0
	for pre < n && pre < m && before[pre].key == sent[pre].key {
		pre++
	}
	suf := 0
	for suf < n-pre && suf < m-pre && before[n-1-suf].key == sent[m-1-suf].key {
		suf++
	}
	a, b := before[pre:n-suf], sent[pre:m-suf]
	pairs := align(a, b)
	if pre+suf+len(pairs) == 0 {
		steps := make([]step, m)
		for j := range steps {
			steps[j] = step{kind: stepNew, msg: j}
		}
		return steps
	}
	var steps []step
	for j := 0; j < pre; j++ {
		steps = append(steps, step{kind: stepSame, msg: j})
	}
	i, j := 0, 0
	for _, p := range append(pairs, [2]int{len(a), len(b)}) {
		steps = append(steps, gap(a[i:p[0]], p[1]-j, j+pre, sent)...)
		if p[0] < len(a) {
			steps = append(steps, step{kind: stepSame, msg: p[1] + pre})
		}
		i, j = p[0]+1, p[1]+1
	}
	for k := 0; k < suf; k++ {
		steps = append(steps, step{kind: stepSame, msg: m - suf + k})
	}
	return steps
}

// gap pairs the messages between two aligned ones: each sent message takes
// the next held one of its role as the one it changes; held messages passed
// over are dropped, sent ones with no partner are new.
func gap(held []seen, count, from int, sent []seen) []step {
	var steps []step
	h := 0
	for j := from; j < from+count; j++ {
		role := sent[j].lines[0]
		k := h
		for k < len(held) && held[k].lines[0] != role {
			k++
		}
		if k == len(held) {
			steps = append(steps, step{kind: stepNew, msg: j})
			continue
		}
		for ; h < k; h++ {
			steps = append(steps, step{kind: stepDropped, before: held[h]})
		}
		steps = append(steps, step{kind: stepChanged, msg: j, before: held[k]})
		h = k + 1
	}
	for ; h < len(held); h++ {
		steps = append(steps, step{kind: stepDropped, before: held[h]})
	}
	return steps
}

// align returns the index pairs of a longest common subsequence of a and b
// by key, or none when the table would exceed maxAlign.
func align(a, b []seen) [][2]int {
	n, m := len(a), len(b)
	if n == 0 || m == 0 || n*m > maxAlign {
		return nil
	}
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i].key == b[j].key:
				t[i][j] = t[i+1][j+1] + 1
			case t[i+1][j] >= t[i][j+1]:
				t[i][j] = t[i+1][j]
			default:
				t[i][j] = t[i][j+1]
			}
		}
	}
	var pairs [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i].key == b[j].key:
			pairs = append(pairs, [2]int{i, j})
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// lineDiff is a unified-style diff of two renderings: "- " lines only in
// a, "+ " only in b, and up to two unchanged lines of context around each
// change.
func lineDiff(a, b []string) string {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	for _, l := range a[:pre] {
		ops = append(ops, line{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	ka := make([]seen, len(ma))
	for i, l := range ma {
		ka[i].key = l
	}
	kb := make([]seen, len(mb))
	for i, l := range mb {
		kb[i].key = l
	}
	i, j := 0, 0
	for _, p := range append(align(ka, kb), [2]int{len(ma), len(mb)}) {
		for ; i < p[0]; i++ {
			ops = append(ops, line{'-', ma[i]})
		}
		for ; j < p[1]; j++ {
			ops = append(ops, line{'+', mb[j]})
		}
		if p[0] < len(ma) {
			ops = append(ops, line{' ', ma[p[0]]})
		}
		i, j = p[0]+1, p[1]+1
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, line{' ', l})
	}
	const context = 2
	var sb strings.Builder
	skipped := false
	for k, o := range ops {
		near := false
		for d := -context; d <= context; d++ {
			if k+d >= 0 && k+d < len(ops) && ops[k+d].op != ' ' {
				near = true
			}
		}
		if o.op == ' ' && !near {
			if !skipped {
				sb.WriteString("  …\n")
			}
			skipped = true
			continue
		}
		skipped = false
		sb.WriteByte(o.op)
		sb.WriteByte(' ')
		sb.WriteString(o.text)
		sb.WriteByte('\n')
	}
	return sb.String()
}
