package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// volatileID matches provider-minted identifiers that change on every
// recording.
var volatileID = regexp.MustCompile(`\b(toolu|srvtoolu|call|fc|rs|msg|resp|req|ws|ci|chatcmpl|cmpl)[_-][A-Za-z0-9]{6,}\b`)

// dateLike matches RFC 3339 timestamps and plain dates.
var dateLike = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b`)

// normaliser replaces volatile values with numbered placeholders, the same
// value always getting the same placeholder within one transcript.
type normaliser struct {
	ids map[string]string
	n   map[string]int
}

func (n *normaliser) text(s string) string {
	s = volatileID.ReplaceAllStringFunc(s, func(id string) string {
		if p, ok := n.ids[id]; ok {
			return p
		}
		prefix := volatileID.FindStringSubmatch(id)[1]
		n.n[prefix]++
		p := fmt.Sprintf("<%s_%d>", prefix, n.n[prefix])
		n.ids[id] = p
		return p
	})
	return dateLike.ReplaceAllString(s, "<date>")
}

// opaque shows a payload by kind, length and a short hash of its bytes.
func opaque(kind string, raw json.RawMessage) string {
	s, ok := rawjson.String(raw)
	if !ok {
		s = string(raw)
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("<%s len=%d sha256:%s>", kind, len(s), hex.EncodeToString(sum[:4]))
}

// Transcript renders the requests of the traffic as conformance.Golden
// pins them: a normalised, human-readable account of what was sent.
func Transcript(tr *check.Traffic) string {
	n := &normaliser{ids: map[string]string{}, n: map[string]int{}}
	var b strings.Builder
	for _, ex := range tr.Exchanges {
		u, _ := url.Parse(ex.URL)
		p := ex.URL
		if u != nil {
			p = u.Path
		}
		fmt.Fprintf(&b, "#%d %s %s (%s) -> %d\n", ex.Index, ex.Method, n.text(p), ex.Wire, ex.Status)
		req := ex.Request
		if req == nil {
			if ex.RequestErr != "" {
				fmt.Fprintf(&b, "  undecodable request: %s\n", ex.RequestErr)
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "  model=%s stream=%t", req.Model, req.Stream)
		if req.Thinking != nil {
			fmt.Fprintf(&b, " thinking=%s", req.Thinking.Type)
			if req.Thinking.BudgetTokens > 0 {
				fmt.Fprintf(&b, "/%d", req.Thinking.BudgetTokens)
			}
		}
		if req.Store != nil {
			fmt.Fprintf(&b, " store=%t", *req.Store)
		}
		if req.PreviousResponseID != "" {
			fmt.Fprintf(&b, " previous_response_id=%s", n.text(req.PreviousResponseID))
		}
		b.WriteString("\n")
		if len(req.Tools) > 0 {
			var names []string
			for _, tl := range req.Tools {
				names = append(names, tl.Name)
			}
			fmt.Fprintf(&b, "  tools: %s\n", strings.Join(names, ", "))
		}
		for _, bl := range req.System {
			fmt.Fprintf(&b, "  system: %s\n", n.block(bl))
		}
		for i, m := range req.Messages {
			eph := ""
			if m.Ephemeral {
				eph = " (ephemeral)"
			}
			fmt.Fprintf(&b, "  [%d] %s%s:\n", i, m.Role, eph)
			for _, bl := range m.Blocks {
				fmt.Fprintf(&b, "      %s\n", n.block(bl))
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// block renders one block on one line.
func (n *normaliser) block(bl traffic.Block) string {
	var parts []string
	kind := string(bl.Type)
	if bl.WireType != "" && bl.WireType != kind {
		kind += "(" + bl.WireType + ")"
	}
	parts = append(parts, kind)
	if bl.ItemID != "" {
		parts = append(parts, n.text(bl.ItemID))
	}
	if bl.ID != "" {
		parts = append(parts, n.text(bl.ID))
	}
	if bl.ToolCallID != "" {
		parts = append(parts, "for "+n.text(bl.ToolCallID))
	}
	if bl.Name != "" {
		parts = append(parts, bl.Name)
	}
	if bl.IsError {
		parts = append(parts, "is_error")
	}
	if bl.Text != "" || bl.Type == traffic.BlockText {
		parts = append(parts, fmt.Sprintf("%q", n.text(bl.Text)))
	}
	if len(bl.Input) > 0 {
		parts = append(parts, n.text(string(rawjson.Compact(bl.Input))))
	}
	if len(bl.ResultRaw) > 0 {
		parts = append(parts, n.text(string(rawjson.Compact(bl.ResultRaw))))
	}
	for _, c := range bl.Content {
		parts = append(parts, "{"+n.block(c)+"}")
	}
	if len(bl.Signature) > 0 {
		parts = append(parts, opaque("signature", bl.Signature))
	}
	if len(bl.Data) > 0 {
		parts = append(parts, opaque("data", bl.Data))
	}
	if len(bl.EncryptedContent) > 0 {
		parts = append(parts, opaque("encrypted_content", bl.EncryptedContent))
	}
	if len(bl.Raw) > 0 && bl.Type == traffic.BlockOther {
		parts = append(parts, opaque("raw", bl.Raw))
	}
	return strings.Join(parts, " ")
}
