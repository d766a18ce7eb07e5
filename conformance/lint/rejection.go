package lint

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// Rejection is what a provider answers a request that breaks an error-level
// check: the HTTP status and body it sends, and what llmtck says of it.
type Rejection struct {
	Check string
	// Location is the JSON path in the request body, "messages[1].content[0]".
	Location string
	Status   int
	// Message is the provider's own error text, as sent in Body.
	Message string
	// Detail is llmtck's account of what was wrong.
	Detail string
	// Body is the error response in the wire's own envelope.
	Body []byte
}

func (r *Rejection) String() string {
	return fmt.Sprintf("HTTP %d %s %s: %s (%s)", r.Status, r.Check, r.Location, r.Message, r.Detail)
}

// Reject is the provider's answer to a request with the error-level
// finding f of check c on wire w: its status, and its own error text with
// the finding's block numbers and ids written in. A nil c (a check the
// caller does not know) is answered 400 with the finding's message.
func Reject(w traffic.Wire, c *check.Check, f check.Finding) *Rejection {
	status, message := providerAnswer(c, f)
	return &Rejection{Check: f.Check, Location: strings.TrimPrefix(f.Location, "request."), Status: status,
		Message: message, Detail: f.Message, Body: providers.ErrorBody(w, status, message)}
}

// providerAnswer is the status and text the provider answers f with.
func providerAnswer(c *check.Check, f check.Finding) (status int, message string) {
	loc := strings.TrimPrefix(f.Location, "request.")
	message, status = f.Message, http.StatusBadRequest
	if c == nil {
		return status, message
	}
	if c.ProviderError != "" {
		message = fillIn(alternative(c.ProviderError, f.Message), loc, f.Message)
	}
	if c.ProviderStatus != 0 {
		status = c.ProviderStatus
	}
	return status, message
}

var (
	messageIndex = regexp.MustCompile(`(?:messages|contents|input)\[(\d+)\]`)
	contentIndex = regexp.MustCompile(`(?:content|parts)\[(\d+)\]`)
	elidedID     = regexp.MustCompile(`\b(toolu|srvtoolu|call|fc|rs|msg|cmp)_…`)
	geminiCall   = regexp.MustCompile(`functionCall ([A-Za-z0-9_.:-]+)`)
)

// alternative picks one of the texts a catalogue entry quotes joined by
// " / " (the provider words the error differently by situation or
// version): the first that names an id the finding's message names too,
// else the first. A provider sends one text, never the list.
func alternative(text, message string) string {
	alts := strings.Split(text, " / ")
	for _, a := range alts {
		ids := elidedID.FindAllStringSubmatch(a, -1)
		fits := len(ids) > 0
		for _, m := range ids {
			fits = fits && strings.Contains(message, m[1]+"_")
		}
		if fits {
			return a
		}
	}
	return alts[0]
}

// fillIn completes a provider error text that the catalogue quotes with
// placeholders — "messages.N.content.M", "toolu_…" — with the finding's
// numbers from its location and the ids named in its message.
func fillIn(text, location, message string) string {
	if m := messageIndex.FindStringSubmatch(location); m != nil {
		text = strings.ReplaceAll(text, "messages.N", "messages."+m[1])
		text = strings.ReplaceAll(text, "messages.[N]", "messages.["+m[1]+"]")
	}
	if m := contentIndex.FindStringSubmatch(location); m != nil {
		text = strings.ReplaceAll(text, "content.M", "content."+m[1])
		text = strings.ReplaceAll(text, "position <k>", "position "+m[1])
	}
	if m := geminiCall.FindStringSubmatch(message); m != nil {
		text = strings.ReplaceAll(text, "default_api:<name>", "default_api:"+m[1])
	}
	return elidedID.ReplaceAllStringFunc(text, func(p string) string {
		prefix := strings.TrimSuffix(p, "…")
		if id := regexp.MustCompile(`\b` + regexp.QuoteMeta(prefix) + `[A-Za-z0-9_-]+`).FindString(message); id != "" {
			return id
		}
		return p
	})
}
