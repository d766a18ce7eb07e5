package conformance

import (
	"net/http"
	"regexp"
	"strings"
)

// Rejection is what a provider answers a request that breaks an error-level
// check with: the HTTP status and the provider's own error text, with the
// finding's message and block numbers written in.
func Rejection(f Finding) (status int, message string) {
	loc := strings.TrimPrefix(f.Location, "request.")
	message = f.Message
	if c := Lookup(f.Check); c != nil && c.ProviderError != "" {
		message = fillIn(alternative(c.ProviderError, f.Message), loc, f.Message)
	}
	status = http.StatusBadRequest
	if f.Check == "OAI-RSN-003" { // an unpersisted reasoning item: OpenAI says 404
		status = http.StatusNotFound
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
