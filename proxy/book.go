package proxy

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/traffic"
)

// book is one cassette in use: what can be replayed from it, where new calls
// are appended, and the calls answered so far for the linter.
type book struct {
	path  string
	name  string
	ready chan struct{}
	err   error

	player *player       // replay and auto
	sink   *sink         // record and auto
	lock   *cassetteLock // record and auto: held until Close

	// lint judges each request against the calls answered before it; nil
	// when Options.Judge is nil. mu guards it: judging reads, adding writes.
	mu   sync.RWMutex
	lint Judge
	// queue runs the linter off the calls' path when no call waits for
	// its verdict; nil when calls are judged on arrival.
	queue *lintQueue
	memo  *traffic.Memo // decodes the history a conversation repeats once

	lines lineOrder // the calls' log lines, in the order their requests started

	cleanMu   sync.Mutex
	clean     []byte   // the last request body scanned and found free of credentials
	ephemeral []string // declared by the harness (HeaderEphemeral), for the cassette
}

// CassetteFor names the cassette of host in a cassette folder.
func CassetteFor(dir, host string) string {
	name := hostToFile.Replace(strings.ToLower(host))
	if name == "" || name[0] == '.' {
		name = "_" + name
	}
	return filepath.Join(dir, name+".yaml")
}

// hostToFile makes a host a file name. Made once: the forward proxy names
// a cassette on every call, and a Replacer builds its table on first use.
var hostToFile = strings.NewReplacer(":", "_", "/", "_", "\\", "_")

// book returns the cassette for a call to host, opening it on first use.
func (r *Recorder) book(host string) (*book, error) {
	path := r.opts.Cassette
	if path == "" {
		path = CassetteFor(r.opts.Dir, host)
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, errClosed
	}
	b := r.books[path]
	if b == nil {
		b = &book{path: path, name: filepath.Base(path), ready: make(chan struct{})}
		b.lines.hold = r.log.w != nil
		b.memo = traffic.NewMemo()
		if r.opts.Judge != nil {
			b.lint = r.opts.Judge()
			if !r.refuses() {
				b.queue = newLintQueue(r.log.warn, b.lines.writeReleased)
			}
		}
		r.books[path] = b
		r.mu.Unlock()
		b.err = r.open(b)
		close(b.ready)
	} else {
		r.mu.Unlock()
		<-b.ready
	}
	return b, b.err
}

func (r *Recorder) open(b *book) error {
	switch r.opts.Mode {
	case ModeReplay:
		c, err := cassette.Load(b.path)
		if errors.Is(err, fs.ErrNotExist) && r.opts.Dir != "" {
			b.player = newPlayer(r.opts.Match, r.policy.URL, nil) // every call to this host misses, saying so
			return nil
		}
		if err != nil {
			return err
		}
		if c.Torn > 0 {
			r.log.warn(fmt.Sprintf("%s: its last %d bytes are an interaction cut in the middle (a recorder was killed while writing it); replaying the %d complete ones", b.path, c.Torn, len(c.Interactions)))
		}
		b.player = newPlayer(r.opts.Match, r.policy.URL, c.Interactions)
	case ModeRecord, ModeAuto:
		lock, err := lockCassette(b.path)
		if err != nil {
			return err
		}
		s, existing, err := openSink(b.path, r.log.warn, r.opts.CassetteFormat == "v4")
		if err != nil {
			lock.release()
			return err
		}
		b.sink, b.lock = s, lock
		b.lines.loaded = s.loaded
		if r.opts.Mode == ModeAuto {
			b.player = newPlayer(r.opts.Match, r.policy.URL, existing)
		}
	}
	return nil
}

// judge judges a request against the calls answered so far.
func (b *book) judge(ex traffic.Exchange) lint.Verdict {
	b.mu.RLock()
	p := b.lint.Prepare(ex)
	b.mu.RUnlock()
	return p.Verdict() // outside the lock: an answered call is remembered meanwhile
}

// maxHistory bounds the calls kept for the linter per cassette, so a long
// session neither grows without end nor lints ever more slowly. A request
// carries its whole conversation; the calls that produced its latest turns
// are the ones the checks compare it with.
const maxHistory = 256

// remember adds an answered call to the linter's history; later, when set,
// decodes its response the first time a judgement needs it.
func (b *book) remember(ex traffic.Exchange, later func(*traffic.Exchange)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lint.Len() == maxHistory {
		b.lint.Forget(maxHistory / 2)
	}
	if later != nil {
		b.lint.AddDeferred(ex, later)
	} else {
		b.lint.Add(ex)
	}
}
