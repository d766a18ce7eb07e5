package proxy

import "sync"

// keepAside is how much of a body the tee keeps in line before it hands
// the rest to a keeper: a call's JSON answer stays on one goroutine, and
// only a body that keeps coming pays for a second. A variable so tests can
// put every body through a keeper.
var keepAside = 1 << 20

// keepPieces bounds the pieces a keeper has not kept yet: when it falls
// that far behind, the stream to the client waits for it.
const keepPieces = 64

// A keeper keeps the rest of a large body on a goroutine of its own, so
// that the credential scan, the text tracking and the spill to disk run
// beside the socket work of passing the body on rather than between reads.
// The tee copies each piece it passes on, and waits for the keeper before
// the call is recorded.
type keeper struct {
	body   *bodyBuffer
	pieces chan *[]byte
	done   chan struct{}
	next   *[]byte // the piece being filled: reads are a few KB, and a hand-over wakes the keeper
}

func newKeeper(body *bodyBuffer) *keeper {
	k := &keeper{body: body, pieces: make(chan *[]byte, keepPieces), done: make(chan struct{})}
	go k.run()
	return k
}

func (k *keeper) run() {
	defer close(k.done)
	for p := range k.pieces {
		k.body.Write(*p)
		piecePool.Put(p)
	}
}

// write hands the keeper a copy of p, with the reads before it once they
// fill a piece.
func (k *keeper) write(p []byte) {
	if k.next != nil && len(*k.next)+len(p) > cap(*k.next) {
		k.pieces <- k.next
		k.next = nil
	}
	if k.next == nil {
		k.next = piecePool.Get().(*[]byte)
		*k.next = (*k.next)[:0]
	}
	*k.next = append(*k.next, p...)
}

// wait returns once everything written has been kept.
func (k *keeper) wait() {
	if k.next != nil {
		k.pieces <- k.next
		k.next = nil
	}
	close(k.pieces)
	<-k.done
}

var piecePool = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}
