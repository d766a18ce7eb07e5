package providers

import (
	"net/url"
	"sync"
	"sync/atomic"
)

// A recording and a live session call a handful of URLs over and over;
// decoding a call asks what its URL says three times. parseURL keeps the
// parsed form of the URLs it has seen (up to maxParsedURLs).
var (
	parsedURLs  sync.Map // string → *url.URL
	parsedCount atomic.Int32
)

const maxParsedURLs = 1024

// parseURL is url.Parse, remembered. The result is the caller's copy.
func parseURL(raw string) (url.URL, error) {
	if u, ok := parsedURLs.Load(raw); ok {
		return *u.(*url.URL), nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return url.URL{}, err
	}
	if parsedCount.Load() < maxParsedURLs {
		if _, loaded := parsedURLs.LoadOrStore(raw, u); !loaded {
			parsedCount.Add(1)
		}
	}
	return *u, nil
}
