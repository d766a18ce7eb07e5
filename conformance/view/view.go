// Package view renders recorded traffic and its check findings as one
// self-contained HTML page: each conversation as chat turns, thinking and
// tool pairing visible, every finding where it points.
package view

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/report"
	"github.com/llmtck/llmtck/traffic"
)

// File is one recording to show: its report entry, and its decoded traffic
// (nil when the file could not be read).
type File struct {
	Report  report.FileReport
	Traffic *check.Traffic
}

// Load reads the files of a report again for the page: the report says
// what was found, the traffic what was sent.
func Load(rep *report.Report) []File {
	files := make([]File, 0, len(rep.Files))
	for _, fr := range rep.Files {
		f := File{Report: fr}
		if fr.Error == "" {
			f.Traffic, _ = report.LoadTraffic(fr.Path, "")
		}
		files = append(files, f)
	}
	return files
}

// Write writes the page for the report and its files: a summary with the
// counts per check, then each file's calls in order.
func Write(w io.Writer, title string, rep *report.Report, files []File) error {
	p := page{Title: title, Summary: rep.Summary}
	counts := map[string]*checkCount{}
	for _, f := range files {
		for _, fd := range f.Report.Findings {
			c := counts[fd.Check]
			if c == nil {
				c = &checkCount{ID: fd.Check}
				if ch := checks.Lookup(fd.Check); ch != nil {
					c.Title = ch.Title
				}
				counts[fd.Check] = c
			}
			switch fd.Severity {
			case check.SeverityError:
				c.Errors++
			case check.SeverityWarning:
				c.Warnings++
			default:
				c.Info++
			}
		}
		p.Files = append(p.Files, buildFile(len(p.Files), f))
	}
	for _, c := range counts {
		p.Checks = append(p.Checks, *c)
	}
	sort.Slice(p.Checks, func(i, j int) bool { return p.Checks[i].ID < p.Checks[j].ID })
	return pageTemplate.Execute(w, p)
}

type page struct {
	Title   string
	Summary report.Summary
	Checks  []checkCount
	Files   []fileView
}

type checkCount struct {
	ID, Title              string
	Errors, Warnings, Info int
}

type fileView struct {
	Anchor, Path, Provider, Error, Note string
	Statuses                            string
	Errors, Warnings                    int
	Calls                               []callView
	Unplaced                            []findingView // findings that point at no call shown
}

type callView struct {
	Anchor, Method, URL, Wire, Model string
	Status                           int
	Failed                           bool // not a 2xx
	Stream                           string
	Events                           []string
	RequestErr, ResponseErr          string
	Sent                             []messageView // the messages new in this request
	Earlier                          int           // messages sent before, not shown again
	Received                         []messageView
	Findings                         []findingView // on the call as a whole
}

type messageView struct {
	Role, Path string
	Blocks     []blockView
	Findings   []findingView
}

type blockView struct {
	Kind, Label, Path, Text string
	Long                    bool   // shown folded
	Anchor                  string // a tool call's anchor, a result's link target
	Ephemeral, Incomplete   bool
	Findings                []findingView
}

type findingView struct {
	Check, Severity, Location, Message, Diff, Troubleshoot string
}

// foldAt is the size above which text is shown folded.
const foldAt = 1200

func buildFile(n int, f File) fileView {
	fr := f.Report
	fv := fileView{Anchor: fmt.Sprintf("f%d", n), Path: fr.Path, Provider: fr.Provider, Error: fr.Error, Note: fr.Note}
	if fr.Dialect != "" {
		fv.Provider += " (" + fr.Dialect + ")"
	}
	fv.Statuses = statuses(fr.Statuses)
	for _, fd := range fr.Findings {
		switch fd.Severity {
		case check.SeverityError:
			fv.Errors++
		case check.SeverityWarning:
			fv.Warnings++
		}
	}
	if f.Traffic == nil {
		for _, fd := range fr.Findings {
			fv.Unplaced = append(fv.Unplaced, finding(fd))
		}
		return fv
	}
	byCall := map[int][]check.Finding{}
	for _, fd := range fr.Findings {
		byCall[fd.Interaction] = append(byCall[fd.Interaction], fd)
	}
	prev := 0
	for i := range f.Traffic.Exchanges {
		ex := &f.Traffic.Exchanges[i]
		cv, seen := buildCall(fv.Anchor, ex, prev, f.Traffic.Ephemeral, byCall[ex.Index])
		if seen > 0 {
			prev = seen
		}
		delete(byCall, ex.Index)
		fv.Calls = append(fv.Calls, cv)
	}
	for _, fds := range byCall {
		for _, fd := range fds {
			fv.Unplaced = append(fv.Unplaced, finding(fd))
		}
	}
	return fv
}

// buildCall renders one call: the messages its request adds to the
// conversation (after the first prev ones), the response, and each finding
// on the block, message or call its location names. It returns how many
// messages the conversation holds after it (those sent, and the reply the
// next request will carry), for the next call to show only what is new.
func buildCall(file string, ex *traffic.Exchange, prev int, ephemeral []string, fds []check.Finding) (callView, int) {
	cv := callView{Anchor: fmt.Sprintf("%s-c%d", file, ex.Index), Method: ex.Method, URL: ex.URL, Wire: string(ex.Wire),
		Status: ex.Status, Failed: ex.Status < 200 || ex.Status >= 300, RequestErr: ex.RequestErr, ResponseErr: ex.ResponseErr}
	place := newPlacer(fds)
	sent := 0
	if req := ex.Request; req != nil {
		cv.Model = req.Model
		sent = len(req.Messages)
		start := prev
		if start > sent {
			start = 0 // a new conversation on the same cassette
		}
		cv.Earlier = start
		if start == 0 && len(req.System) > 0 {
			cv.Sent = append(cv.Sent, message(file, "request.", traffic.Message{Role: "system", Blocks: req.System}, ephemeral, place))
		}
		for _, m := range req.Messages[start:] {
			cv.Sent = append(cv.Sent, message(file, "request.", m, ephemeral, place))
		}
	}
	if resp := ex.Response; resp != nil {
		for _, m := range resp.Output {
			if m.Role == "" {
				m.Role = traffic.RoleAssistant
			}
			cv.Received = append(cv.Received, message(file, "response.", m, nil, place))
		}
		if s := resp.Stream; s != nil {
			state := "complete"
			switch {
			case s.Error != nil:
				state = "ended by an error event: " + s.Error.Type + " " + s.Error.Message
			case s.Truncated:
				state = "cut off before its terminal event"
			case !s.Complete:
				state = "not complete"
			}
			cv.Stream = fmt.Sprintf("stream of %d events, %s", s.Events, state)
			for k, off := range s.Offsets {
				cv.Events = append(cv.Events, fmt.Sprintf("#%d at byte %d", k, off))
			}
		}
		if resp.Error != nil {
			cv.ResponseErr = strings.TrimSpace(resp.Error.Type + " " + resp.Error.Message)
		}
	}
	cv.Findings = place.rest()
	if sent > 0 && ex.Response != nil && ex.Accepted() {
		sent += len(ex.Response.Output)
	}
	return cv, sent
}

func message(file, side string, m traffic.Message, ephemeral []string, place *placer) messageView {
	mv := messageView{Role: string(m.Role), Path: m.Path, Findings: place.take(side+m.Path, false)}
	for _, b := range m.Blocks {
		bv := block(file, b, ephemeral)
		bv.Findings = place.take(side+b.Path, true)
		mv.Blocks = append(mv.Blocks, bv)
	}
	return mv
}

func block(file string, b traffic.Block, ephemeral []string) blockView {
	bv := blockView{Kind: string(b.Type), Path: b.Path, Text: b.Text, Incomplete: b.Incomplete}
	switch b.Type {
	case traffic.BlockText:
		bv.Label = "text"
		for _, e := range ephemeral {
			if e != "" && strings.Contains(b.Text, e) {
				bv.Ephemeral = true
			}
		}
	case traffic.BlockThinking, traffic.BlockReasoning:
		bv.Label = fmt.Sprintf("thinking · signature %s", size(b.Signature))
		if len(b.EncryptedContent) > 0 {
			bv.Label = fmt.Sprintf("reasoning · encrypted_content %s", size(b.EncryptedContent))
		}
		bv.Long = true
	case traffic.BlockRedacted:
		bv.Label = fmt.Sprintf("redacted thinking · data %s", size(b.Data))
		bv.Text = "(redacted: only the provider can read it)"
		bv.Long = true
	case traffic.BlockToolCall:
		bv.Label = fmt.Sprintf("tool call %s · %s", b.Name, b.ID)
		bv.Text = string(b.Input)
		bv.Anchor = callAnchor(file, b.ID)
	case traffic.BlockToolResult:
		bv.Label = "tool result for " + b.ToolCallID
		if b.IsError {
			bv.Label += " · error"
		}
		bv.Text = resultText(b)
		bv.Anchor = callAnchor(file, b.ToolCallID)
	default:
		bv.Label = b.WireType
		if bv.Label == "" {
			bv.Label = string(b.Type)
		}
		if bv.Text == "" {
			bv.Text = string(b.Raw)
		}
	}
	if len(bv.Text) > foldAt {
		bv.Long = true
	}
	return bv
}

func resultText(b traffic.Block) string {
	if len(b.ResultRaw) > 0 {
		return string(b.ResultRaw)
	}
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func callAnchor(file, id string) string {
	if id == "" {
		return ""
	}
	return file + "-tool-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
}

func size(raw []byte) string {
	switch n := len(raw); {
	case n == 0:
		return "none"
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	default:
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
}

func statuses(ss []int) string {
	counts := map[int]int{}
	var order []int
	for _, s := range ss {
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d×%d", s, counts[s]))
	}
	return strings.Join(parts, " ")
}

func finding(fd check.Finding) findingView {
	fv := findingView{Check: fd.Check, Severity: string(fd.Severity), Location: fd.Location, Message: fd.Message, Diff: fd.Diff}
	if c := checks.Lookup(fd.Check); c != nil {
		fv.Troubleshoot = c.Troubleshoot
	}
	return fv
}

// placer hands a call's findings to the block or message their location
// names; what no block or message takes stays on the call.
type placer struct {
	fds   []check.Finding
	taken []bool
}

func newPlacer(fds []check.Finding) *placer { return &placer{fds: fds, taken: make([]bool, len(fds))} }

// take returns the findings at path: exactly there, or below it when the
// path is a block's (a signature field of a block belongs to the block).
func (p *placer) take(path string, below bool) []findingView {
	var out []findingView
	for i, fd := range p.fds {
		if p.taken[i] || path == "" || path == "request." || path == "response." {
			continue
		}
		loc := fd.Location
		if loc == path || below && (strings.HasPrefix(loc, path+".") || strings.HasPrefix(loc, path+"[")) {
			p.taken[i] = true
			out = append(out, finding(fd))
		}
	}
	return out
}

func (p *placer) rest() []findingView {
	var out []findingView
	for i, fd := range p.fds {
		if !p.taken[i] {
			out = append(out, finding(fd))
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"lower": strings.ToLower,
	"plural": func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	},
}).Parse(pageHTML))

//go:embed page.html
var pageHTML string
