package checks_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// The live linter judges each request, as it arrives, the way check judges
// the whole recording: on every corpus cassette, every finding the linter
// gives request i is one check gives interaction i (recording checks aside,
// which the linter leaves out). This is the test an incremental linter
// (issue 15) must keep passing; dropping superseded requests from the
// history was tried and fails it (HIST-003 on a Responses history edit).
func TestLiveJudgementMatchesCheck(t *testing.T) {
	files := append(corpus.Files(t), corpus.SetFiles(t, corpus.Wave2)...)
	var cs []*check.Check
	for _, c := range checks.All() {
		if !c.Recording {
			cs = append(cs, c)
		}
	}
	compared := 0
	for _, path := range files {
		c, err := cassette.Load(path)
		if err != nil {
			continue
		}
		exs := providers.DecodeCassette(c, "")
		whole := map[int][]string{}
		for _, f := range check.Judge(&check.Traffic{Exchanges: exs}, cs) {
			whole[f.Interaction] = append(whole[f.Interaction], key(f))
		}
		l := lint.New(cs)
		for i, ex := range exs {
			var live []string
			for _, f := range l.Judge(ex).Findings {
				live = append(live, key(f))
			}
			l.Add(ex)
			slices.Sort(live)
			want := slices.Clone(whole[i])
			slices.Sort(want)
			// check also sees later requests: findings about interaction i
			// raised because of what came after it are not live findings.
			if !subset(live, want) {
				t.Errorf("%s interaction %d: live %v, check %v", corpus.Name(t, path), i, live, want)
			}
			compared++
		}
	}
	t.Logf("%d requests compared", compared)
}

func key(f check.Finding) string { return fmt.Sprintf("%s/%s/%s", f.Check, f.Severity, f.Location) }

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// The linter judges a request that extends an accepted one unchanged
// against that call and the ones after it only, and a fresh one (a new
// conversation of user text) alone; on every corpus cassette it
// gives every request the findings a linter judging against the whole
// history gives, messages included. (The corpus has few long conversations;
// reference's TestIncrementalLintOnScenarios plays many, broken ones too.)
func TestIncrementalJudgementMatchesFull(t *testing.T) { matchIncrementalToFull(t, false, false) }

// The same across cassettes: one linter sees every corpus recording one
// after the other, as a proxy in front of several harnesses does, so a
// request that extends a call is judged with many calls of other wires and
// conversations before it left out. (It found that OAI-TOOL-003 reported a
// call once per id, not once per call: the redacted ids of different
// recordings collide.)
func TestIncrementalJudgementMatchesFullAcrossCassettes(t *testing.T) {
	matchIncrementalToFull(t, true, false)
}

// The same with every answer added undecoded, as the recording proxy adds
// a JSON answer (lint.Linter.AddDeferred): decoded only when a judgement
// reaches back to it, the verdicts are the ones eager decoding gives.
func TestDeferredResponsesJudgeAsDecodedOnes(t *testing.T) {
	t.Run("per-cassette", func(t *testing.T) { matchIncrementalToFull(t, false, true) })
	t.Run("across-cassettes", func(t *testing.T) { matchIncrementalToFull(t, true, true) })
}

// matchIncrementalToFull judges every corpus request with the linter's
// shortcuts and against the whole history, with a linter per cassette or
// one for all of them, and compares the verdicts. With deferred, the
// linter with the shortcuts is given each answer undecoded.
func matchIncrementalToFull(t *testing.T, acrossCassettes, deferred bool) {
	fast, full := lint.New(checks.All()), lint.New(checks.All())
	full.Full = true
	compared, shortened, added, decodes := 0, 0, 0, 0
	for _, path := range append(corpus.Files(t), corpus.SetFiles(t, corpus.Wave2)...) {
		c, err := cassette.Load(path)
		if err != nil {
			continue
		}
		if !acrossCassettes {
			fast, full = lint.New(checks.All()), lint.New(checks.All())
			full.Full = true
		}
		for i, ex := range providers.DecodeCassette(c, "") {
			v := fast.Judge(ex)
			if got, want := verdictLines(v), verdictLines(full.Judge(ex)); !slices.Equal(got, want) {
				t.Errorf("%s interaction %d (call %d of the linter):\nincremental %q\nfull        %q", corpus.Name(t, path), i, fast.Len(), got, want)
			}
			if v.Shortened {
				shortened++
			}
			// As the proxy does: the request decoded, the response left to
			// providers.DeferResponse.
			undecoded := ex
			undecoded.Response, undecoded.ResponseErr, undecoded.Status = nil, "", 0
			in := c.Interactions[i]
			later := providers.DeferResponse(&undecoded, providers.Call{Method: in.Request.Method, URL: in.Request.URL,
				Status: in.Response.Status, ResponseHeader: in.Response.Header, ResponseBody: in.Response.Body, Duration: in.Response.Duration})
			if deferred && later != nil {
				fast.AddDeferred(undecoded, func(ex *traffic.Exchange) { decodes++; later(ex) })
				added++
			} else {
				fast.Add(ex)
			}
			full.Add(ex)
			compared++
		}
	}
	if shortened == 0 {
		t.Error("no request was judged against a shortened history: the test proves nothing")
	}
	if deferred && (decodes == 0 || decodes >= added) {
		t.Errorf("%d of %d deferred answers were decoded: the test proves nothing unless some are and some are not", decodes, added)
	}
	t.Logf("%d requests compared, %d judged against a shortened history, %d of %d deferred answers decoded", compared, shortened, decodes, added)
}

func verdictLines(v lint.Verdict) []string {
	var out []string
	for _, f := range v.Findings {
		out = append(out, f.String())
	}
	return out
}

// A live judgement (check.Traffic.Latest) may leave the requests before
// the last one unjudged. On every corpus cassette, each request's findings
// judged so are the ones a judgement of every request before it gives it,
// messages and diffs included.
func TestLatestJudgesTheLastAsAWholeJudgementDoes(t *testing.T) {
	var cs []*check.Check
	for _, c := range checks.All() {
		if !c.Recording {
			cs = append(cs, c)
		}
	}
	compared := 0
	for _, path := range append(corpus.Files(t), corpus.SetFiles(t, corpus.Wave2)...) {
		c, err := cassette.Load(path)
		if err != nil {
			continue
		}
		exs := providers.DecodeCassette(c, "")
		for i := range exs {
			about := func(tr *check.Traffic) []string {
				var out []string
				for _, f := range check.Judge(tr, cs) {
					if f.Interaction == i {
						out = append(out, fmt.Sprintf("%s %s %s: %s\n%s", f.Check, f.Severity, f.Location, f.Message, f.Diff))
					}
				}
				return out
			}
			got, want := about(&check.Traffic{Exchanges: exs[:i+1], Latest: true}), about(&check.Traffic{Exchanges: exs[:i+1]})
			if !slices.Equal(got, want) {
				t.Errorf("%s interaction %d:\njudged latest %q\njudged whole  %q", corpus.Name(t, path), i, got, want)
			}
			compared++
		}
	}
	t.Logf("%d requests compared", compared)
}
