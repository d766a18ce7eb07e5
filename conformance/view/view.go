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
// counts per check, each linked to its findings, then each file's calls in
// order, the files with findings first.
func Write(w io.Writer, title string, rep *report.Report, files []File) error {
	p := page{Title: title, Summary: rep.Summary}
	counts := map[string]*checkCount{}
	for n, f := range files {
		fv := buildFile(n, f)
		for k, fd := range f.Report.Findings {
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
			if c.First == "" {
				c.First = findingAnchor(fv.Anchor, k)
			}
			if l := len(c.Where); l == 0 || c.Where[l-1].File != fv.Anchor {
				c.Where = append(c.Where, checkWhere{File: fv.Anchor, Path: f.Report.Path, First: findingAnchor(fv.Anchor, k)})
			}
			c.Where[len(c.Where)-1].Count++
		}
		p.Files = append(p.Files, fv)
	}
	for _, c := range counts {
		if len(c.Where) > maxWhere {
			c.More = len(c.Where) - maxWhere
			c.Where = c.Where[:maxWhere]
		}
		p.Checks = append(p.Checks, *c)
	}
	sort.Slice(p.Checks, func(i, j int) bool { return p.Checks[i].ID < p.Checks[j].ID })
	sort.SliceStable(p.Files, func(i, j int) bool { return rank(p.Files[i]) < rank(p.Files[j]) })
	return pageTemplate.Execute(w, p)
}

// maxWhere is how many files a check row links to by name.
const maxWhere = 8

// rank orders files for the page: unreadable or with errors, with
// warnings, with other findings, then clean.
func rank(f fileView) int {
	switch {
	case f.Error != "" || f.Errors > 0:
		return 0
	case f.Warnings > 0:
		return 1
	case f.Findings > 0:
		return 2
	}
	return 3
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
	First                  string       // the anchor of its first finding
	Where                  []checkWhere // the files it was found in, up to maxWhere
	More                   int          // files beyond those
}

type checkWhere struct {
	File, Path, First string
	Count             int
}

type fileView struct {
	Anchor, Path, Provider, Error, Note string
	Statuses                            string
	Errors, Warnings, Findings          int
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
	Sent                             []sentView // the request's history, what it repeats folded
	Received                         []messageView
	Findings                         []findingView // on the call as a whole
}

// sentView is one entry of a request's history as shown: a run of
// messages sent again unchanged (folded), a message the conversation held
// and the request leaves out, or a message shown in full (new or changed).
type sentView struct {
	Same    int
	Dropped *droppedView
	Msg     *messageView
}

// droppedView names a message the conversation held that a request leaves
// out: its role, its first block, and where it was.
type droppedView struct {
	Role, First, Where, Link string
}

type messageView struct {
	Role, Path string
	Resent     bool   // sent again unchanged, shown for the findings on it
	Changed    bool   // sent again, different from before
	Before     string // where it was before, when changed
	BeforeLink string
	Diff       string // before → now, when changed
	Blocks     []blockView
	Findings   []findingView
}

type blockView struct {
	Kind, Label, Path, Text string
	Long                    bool   // shown folded
	ID                      string // a tool call's anchor, where it first appears
	Link                    string // a tool result's call, when shown
	Ephemeral, Incomplete   bool
	Findings                []findingView
}

type findingView struct {
	ID, Check, Severity, Location, Message, Diff, Troubleshoot string
}

// foldAt is the size above which text is shown folded.
const foldAt = 1200

// fileBuilder carries what one file's calls share: the history so far,
// the tool call anchors defined, the findings.
type fileBuilder struct {
	anchor    string
	ephemeral []string
	fds       []check.Finding
	history   []seen // the conversation as the next request should extend it
	system    *seen  // the system prompt last sent
	anchors   map[string]bool
	unkeyed   map[string][]string // id-less tool calls by name, of the latest message with any
}

func findingAnchor(file string, k int) string { return fmt.Sprintf("%s-x%d", file, k) }

func buildFile(n int, f File) fileView {
	fr := f.Report
	fv := fileView{Anchor: fmt.Sprintf("f%d", n), Path: fr.Path, Provider: fr.Provider, Error: fr.Error, Note: fr.Note, Findings: len(fr.Findings)}
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
	fb := &fileBuilder{anchor: fv.Anchor, fds: fr.Findings, anchors: map[string]bool{}}
	byCall := map[int][]int{}
	for k, fd := range fr.Findings {
		byCall[fd.Interaction] = append(byCall[fd.Interaction], k)
	}
	if f.Traffic != nil {
		fb.ephemeral = f.Traffic.Ephemeral
		for i := range f.Traffic.Exchanges {
			ex := &f.Traffic.Exchanges[i]
			fv.Calls = append(fv.Calls, fb.call(ex, byCall[ex.Index]))
			delete(byCall, ex.Index)
		}
	}
	var rest []int
	for _, ks := range byCall {
		rest = append(rest, ks...)
	}
	sort.Ints(rest)
	for _, k := range rest {
		fv.Unplaced = append(fv.Unplaced, fb.finding(k))
	}
	return fv
}

// call renders one call: its request's history compared by content with
// the conversation before it (what the earlier calls sent and their
// responses produced), the response, and each finding on the block,
// message or call its location names.
func (fb *fileBuilder) call(ex *traffic.Exchange, fds []int) callView {
	cv := callView{Anchor: fmt.Sprintf("%s-c%d", fb.anchor, ex.Index), Method: ex.Method, URL: ex.URL, Wire: string(ex.Wire),
		Status: ex.Status, Failed: ex.Status < 200 || ex.Status >= 300, RequestErr: ex.RequestErr, ResponseErr: ex.ResponseErr}
	place := &placer{fb: fb, fds: fds, taken: make([]bool, len(fds))}
	where := fmt.Sprintf("call %d's request", ex.Index)
	sent := fb.history
	if req := ex.Request; req != nil {
		cv.Model = req.Model
		cv.Sent = fb.sent(ex, req, where, cv.Anchor, place)
		sent = fb.history
	}
	if resp := ex.Response; resp != nil {
		for _, m := range resp.Output {
			if m.Role == "" {
				m.Role = traffic.RoleAssistant
			}
			cv.Received = append(cv.Received, fb.message(ex.Wire, cv.Anchor, "response.", m, nil, place))
			if ex.Request != nil && ex.Accepted() {
				lines := describe(ex.Wire, &m)
				sent = append(sent, seen{lines: lines, key: keyOf(lines), where: fmt.Sprintf("call %d's response", ex.Index), link: cv.Anchor})
			}
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
	fb.history = sent
	cv.Findings = place.rest()
	return cv
}

// sent renders a request's system prompt and history: what repeats the
// conversation unchanged is folded into a count, every message that is new
// or differs from what was sent or produced before is shown, a changed one
// with its diff, and what the request leaves out is named. It leaves the
// request's history in fb.history.
func (fb *fileBuilder) sent(ex *traffic.Exchange, req *traffic.Request, where, link string, place *placer) []sentView {
	var out []sentView
	if len(req.System) > 0 {
		sys := traffic.Message{Role: traffic.RoleSystem, Blocks: req.System}
		lines := describe(ex.Wire, &sys)
		now := seen{lines: lines, key: keyOf(lines), where: where, link: link}
		if fb.system == nil || fb.system.key != now.key {
			mv := fb.message(ex.Wire, link, "request.", sys, fb.ephemeral, place)
			if fb.system != nil {
				fb.changed(&mv, fb.system, lines)
			}
			out = append(out, sentView{Msg: &mv})
		} else {
			out = append(out, sentView{Same: 1})
		}
		fb.system = &now
	}
	history := make([]seen, len(req.Messages))
	for i := range req.Messages {
		lines := describe(ex.Wire, &req.Messages[i])
		history[i] = seen{lines: lines, key: keyOf(lines), where: where, link: link}
	}
	for _, st := range compare(fb.history, history) {
		switch st.kind {
		case stepSame:
			if m := req.Messages[st.msg]; place.has("request." + m.Path) {
				// A finding points into it: shown where it points.
				mv := fb.message(ex.Wire, link, "request.", m, fb.ephemeral, place)
				mv.Resent = true
				out = append(out, sentView{Msg: &mv})
			} else if l := len(out); l > 0 && out[l-1].Same > 0 {
				out[l-1].Same++
			} else {
				out = append(out, sentView{Same: 1})
			}
		case stepDropped:
			d := &droppedView{Role: strings.TrimPrefix(st.before.lines[0], "role: "), Where: st.before.where, Link: st.before.link}
			for _, l := range st.before.lines[1:] {
				if strings.HasPrefix(l, "[") {
					d.First = l
					break
				}
			}
			out = append(out, sentView{Dropped: d})
		default:
			mv := fb.message(ex.Wire, link, "request.", req.Messages[st.msg], fb.ephemeral, place)
			if st.kind == stepChanged {
				fb.changed(&mv, &st.before, history[st.msg].lines)
			}
			out = append(out, sentView{Msg: &mv})
		}
	}
	fb.history = history
	return out
}

func (fb *fileBuilder) changed(mv *messageView, before *seen, now []string) {
	mv.Changed, mv.Before, mv.BeforeLink = true, before.where, before.link
	mv.Diff = lineDiff(before.lines, now)
}

func (fb *fileBuilder) message(wire traffic.Wire, call, side string, m traffic.Message, ephemeral []string, place *placer) messageView {
	mv := messageView{Role: string(m.Role), Path: m.Path, Findings: place.take(side+m.Path, false)}
	if mv.Role == "" {
		mv.Role = roleOf(&m)
	}
	seenCalls := map[string]int{}   // id-less calls of this message by name
	seenResults := map[string]int{} // id-less results of this message by name
	var unkeyed map[string][]string
	for i, b := range m.Blocks {
		bv := block(wire, b, ephemeral)
		switch b.Type {
		case traffic.BlockToolCall:
			var a string
			if b.ID != "" {
				a = callAnchor(fb.anchor, "id-"+b.ID)
				bv.Label += " · id " + b.ID
			} else {
				k := seenCalls[b.Name]
				seenCalls[b.Name]++
				a = callAnchor(fb.anchor, fmt.Sprintf("%s-%s%s-%d", call, side, m.Path, i))
				bv.Label += fmt.Sprintf(" · no id: paired by name, #%d", k+1)
				if unkeyed == nil {
					unkeyed = map[string][]string{}
				}
				unkeyed[b.Name] = append(unkeyed[b.Name], a)
			}
			if !fb.anchors[a] {
				fb.anchors[a] = true
				bv.ID = a
			}
		case traffic.BlockToolResult:
			if b.ToolCallID != "" {
				if b.Name == "" {
					bv.Label = strings.Replace(bv.Label, "tool result", "tool result for id "+b.ToolCallID, 1)
				} else {
					bv.Label += " · id " + b.ToolCallID
				}
				if a := callAnchor(fb.anchor, "id-"+b.ToolCallID); fb.anchors[a] {
					bv.Link = a
				}
			} else if b.Name != "" {
				k := seenResults[b.Name]
				seenResults[b.Name]++
				bv.Label += fmt.Sprintf(" · no id: paired by name, #%d", k+1)
				if calls := fb.unkeyed[b.Name]; k < len(calls) {
					bv.Link = calls[k]
				}
			} else {
				bv.Label += " · no id and no name: it pairs with no call"
			}
		}
		if len(b.Signature) > 0 && b.Type != traffic.BlockThinking {
			bv.Label += " · " + signatureName(wire) + " " + payload(wire, b.Signature)
		}
		bv.Findings = place.take(side+b.Path, true)
		mv.Blocks = append(mv.Blocks, bv)
	}
	if unkeyed != nil {
		fb.unkeyed = unkeyed
	}
	return mv
}

func block(wire traffic.Wire, b traffic.Block, ephemeral []string) blockView {
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
		bv.Label = "thinking · " + signatureName(wire) + " none"
		if len(b.Signature) > 0 {
			bv.Label = "thinking · " + signatureName(wire) + " " + payload(wire, b.Signature)
		}
		if len(b.EncryptedContent) > 0 {
			bv.Label = "reasoning · encrypted_content " + payload("", b.EncryptedContent)
		}
		bv.Long = true
	case traffic.BlockRedacted:
		bv.Label = "redacted thinking · data " + payload("", b.Data)
		bv.Text = "(redacted: only the provider can read it)"
		bv.Long = true
	case traffic.BlockToolCall:
		bv.Label = "tool call " + b.Name
		if b.Name == "" {
			bv.Label += "(no name)"
		}
		bv.Text = string(b.Input)
	case traffic.BlockToolResult:
		bv.Label = "tool result"
		if b.Name != "" {
			bv.Label += " for " + b.Name
		}
		if b.IsError {
			bv.Label += " · error"
		}
		bv.Text = resultText(b)
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

func (fb *fileBuilder) finding(k int) findingView {
	fd := fb.fds[k]
	fv := findingView{ID: findingAnchor(fb.anchor, k), Check: fd.Check, Severity: string(fd.Severity), Location: fd.Location, Message: fd.Message, Diff: fd.Diff}
	if c := checks.Lookup(fd.Check); c != nil {
		fv.Troubleshoot = c.Troubleshoot
	}
	return fv
}

// placer hands a call's findings to the block or message their location
// names; what no block or message takes stays on the call.
type placer struct {
	fb    *fileBuilder
	fds   []int // indexes into fb.fds
	taken []bool
}

// take returns the findings at path: exactly there, or below it when the
// path is a block's (a signature field of a block belongs to the block).
func (p *placer) take(path string, below bool) []findingView {
	var out []findingView
	for i, k := range p.fds {
		if p.taken[i] || path == "" || path == "request." || path == "response." {
			continue
		}
		loc := p.fb.fds[k].Location
		if loc == path || below && (strings.HasPrefix(loc, path+".") || strings.HasPrefix(loc, path+"[")) {
			p.taken[i] = true
			out = append(out, p.fb.finding(k))
		}
	}
	return out
}

// has reports whether a finding not yet placed points at path or below.
func (p *placer) has(path string) bool {
	if path == "request." {
		return false
	}
	for i, k := range p.fds {
		loc := p.fb.fds[k].Location
		if !p.taken[i] && (loc == path || strings.HasPrefix(loc, path+".") || strings.HasPrefix(loc, path+"[")) {
			return true
		}
	}
	return false
}

func (p *placer) rest() []findingView {
	var out []findingView
	for i, k := range p.fds {
		if !p.taken[i] {
			out = append(out, p.fb.finding(k))
		}
	}
	return out
}

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"lower":     strings.ToLower,
	"diffLines": diffLines,
	"plural": func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	},
}).Parse(pageHTML))

type diffLine struct{ Class, Text string }

// diffLines splits a lineDiff for the page, each line classed by its mark.
func diffLines(diff string) []diffLine {
	var out []diffLine
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		class := "same"
		switch {
		case strings.HasPrefix(l, "- "):
			class = "del"
		case strings.HasPrefix(l, "+ "):
			class = "add"
		}
		out = append(out, diffLine{class, l})
	}
	return out
}

//go:embed page.html
var pageHTML string
