package proxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// errClosed answers appends that arrive after Close.
var errClosed = errors.New("the recorder is closed")

// sink appends interactions to one cassette file. Each append has written
// its interaction to the file before it returns, so a killed process leaves
// a file that loads and holds every finished interaction; a background
// syncer then fsyncs the file, batching appends that come close together,
// so a power cut loses at most the last syncEvery (250 ms) or so.
//
// Calls that finish while the file is being written to are written
// together, in one write(2), by the first of them (group commit): under
// load the file takes a few large writes instead of many small ones. A call
// that finds the file idle writes its interaction at once, alone.
//
// An event stream too large for memory may be written into the end of the
// file as it arrives, behind a mark that keeps it out of the YAML document
// until it is whole (see lease); any other append takes the end back first.
type sink struct {
	path   string
	f      *os.File
	base   int64 // where this session's interactions start
	loaded int   // interactions in the file before this session

	mu     sync.Mutex // guards the fields below and writes to f
	size   int64      // bytes in the file
	items  []item     // this session's interactions, in file order
	broken error      // set when a failed write could not be undone
	lease  *lease     // the stream written in place at the end, if any
	// patcher writes over a lease's mark: f appends wherever it writes.
	patcher *os.File

	qmu     sync.Mutex // guards open and closed
	open    *batch     // the batch new interactions join; nil when none waits
	closed  bool
	pending sync.WaitGroup // appends under way; close waits for them

	kick chan struct{} // wakes the syncer; closed by close
	// closing is closed when close begins: the syncer stops waiting for
	// its next turn, since close syncs the file itself.
	closing chan struct{}
	done    chan error // the syncer's first error, when it stops
	warn    func(string)
}

// batch is interactions encoded back to back, waiting to be written by its
// first member.
type batch struct {
	buf    []byte
	pooled *[]byte // where buf goes back to encodeBuffers
	seqs   []uint64
	ends   []int64 // where each interaction ends in buf
	first  int     // the first one's index in the cassette, once written
	err    error
	done   chan struct{} // closed once written (or failed)
}

// item is one interaction written by this session: its place in the file
// and the order in which its request started.
type item struct {
	seq    uint64
	off, n int64
}

// openSink opens the cassette at path for appending, creating it when it
// does not exist. An existing cassette must be one llmtck can append to (go-vcr
// v2); its interactions are returned. A file whose last interaction was torn
// by a crash is repaired: the torn bytes are moved aside, never dropped.
func openSink(path string, warn func(string), acceptV4 bool) (*sink, []*cassette.Interaction, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	existing, err := prepare(path, warn, acceptV4)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	s := &sink{path: path, f: f, size: st.Size(), base: st.Size(), loaded: len(existing),
		kick: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan error, 1), warn: warn}
	go s.syncer()
	return s, existing, nil
}

// prepare leaves path holding a cassette in exactly the layout the sink
// appends to, and returns its interactions.
func prepare(path string, warn func(string), acceptV4 bool) ([]*cassette.Interaction, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(data) == 0 {
		var buf bytes.Buffer
		cassette.EncodeHeader(&buf)
		return nil, replaceFile(path, buf.Bytes())
	}
	if err != nil {
		return nil, err
	}
	c, err := cassette.Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("%w (llmtck will not append to a cassette that does not load)", err)
	}
	if c.Torn > 0 {
		if err := moveTornTail(path, data, c, warn); err != nil {
			return nil, err
		}
		data = data[:int64(len(data))-c.Torn]
	}
	if c.Format == cassette.FormatGoVCRv2 && acceptV4 {
		// Recording with --cassette-format v4: a go-vcr v4 cassette takes
		// appends in the v2 layout until Close writes it as v4 again.
		c.Format = cassette.FormatGoVCRv1
	}
	if c.Format != cassette.FormatGoVCRv1 {
		return nil, fmt.Errorf("%s is a %s recording; llmtck appends only to go-vcr v2 cassettes (`version: 1`): record into another file, or convert it with `llmtck import`", path, c.Format)
	}
	var want bytes.Buffer
	if err := c.Encode(&want); err != nil {
		return nil, err
	}
	if !bytes.Equal(want.Bytes(), data) {
		// Written by another tool: lay it out as the sink writes, once, atomically.
		if err := replaceFile(path, want.Bytes()); err != nil {
			return nil, err
		}
	}
	return c.Interactions, nil
}

// moveTornTail keeps the complete interactions of a cassette whose end was
// cut mid-interaction (the process died while appending) and saves the torn
// bytes next to it, so nothing is dropped and appends start clean.
func moveTornTail(path string, data []byte, c *cassette.Cassette, warn func(string)) error {
	cut := int64(len(data)) - c.Torn
	torn := fmt.Sprintf("%s.torn-%d", path, time.Now().UnixNano())
	if err := replaceFile(torn, data[cut:]); err != nil {
		return err
	}
	if err := replaceFile(path, data[:cut]); err != nil {
		return err
	}
	warn(fmt.Sprintf("%s: its last %d bytes were a torn interaction (a crash while writing); kept the %d complete ones and moved the rest to %s", path, c.Torn, len(c.Interactions), torn))
	return nil
}

// replaceFile writes data to path atomically and durably.
func replaceFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// append writes in to the file and returns its index there. seq orders
// interactions by the start of their request when the sink is closed. A
// spilled response body is streamed from body instead of in.Response.Body.
func (s *sink) append(seq uint64, in *cassette.Interaction, body *bodyBuffer) (int, error) {
	s.qmu.Lock()
	if s.closed {
		s.qmu.Unlock()
		return 0, errClosed
	}
	s.pending.Add(1)
	s.qmu.Unlock()
	defer s.pending.Done()
	if body != nil && body.Spilled() {
		return s.appendSpilled(seq, in, body)
	}

	// Encode before taking any lock, so concurrent calls encode in parallel.
	enc := encodeBuffers.Get().(*[]byte)
	*enc = cassette.AppendInteraction((*enc)[:0], in)
	s.qmu.Lock()
	if s.open == nil && s.mu.TryLock() {
		// Nobody writes or waits to: write this one alone, with no batch
		// for others to join (one that comes meanwhile leads the next).
		s.qmu.Unlock()
		first, err := s.write(*enc, []uint64{seq}, []int64{int64(len(*enc))})
		s.mu.Unlock()
		if cap(*enc) <= maxPooled {
			encodeBuffers.Put(enc)
		}
		return first, err
	}
	b := s.open
	leader := b == nil
	if leader {
		b = &batch{pooled: encodeBuffers.Get().(*[]byte), done: make(chan struct{})}
		b.buf = (*b.pooled)[:0]
		s.open = b
	}
	pos := len(b.seqs)
	b.buf = append(b.buf, *enc...)
	b.seqs = append(b.seqs, seq)
	b.ends = append(b.ends, int64(len(b.buf)))
	s.qmu.Unlock()
	if cap(*enc) <= maxPooled {
		encodeBuffers.Put(enc)
	}

	if !leader {
		<-b.done // the leader wrote it; b is not recycled while followers may read it
		return b.first + pos, b.err
	}
	s.mu.Lock()
	// From here on, calls that finish start the next batch.
	s.qmu.Lock()
	s.open = nil
	s.qmu.Unlock()
	b.first, b.err = s.write(b.buf, b.seqs, b.ends)
	s.mu.Unlock()
	if cap(b.buf) <= maxPooled {
		*b.pooled = b.buf
		encodeBuffers.Put(b.pooled)
	}
	b.buf = nil
	close(b.done)
	return b.first + pos, b.err
}

// encodeBuffers keeps byte buffers between calls: the sink's encodings and
// batches, the log's lines. Buffers grown past maxPooled by a large body are
// left to the collector.
var encodeBuffers = sync.Pool{New: func() any { return new([]byte) }}

const maxPooled = 1 << 20

// write writes encoded interactions, which end at ends and began in the
// order seqs, in one Write, and returns the index of the first in the
// cassette. The caller holds s.mu.
func (s *sink) write(buf []byte, seqs []uint64, ends []int64) (int, error) {
	if s.broken != nil {
		return 0, s.broken
	}
	s.revoke()
	off := s.size
	n, err := s.f.Write(buf)
	if err != nil {
		// Cut the half-written batch off so the file still loads.
		if terr := s.f.Truncate(off); terr != nil {
			s.broken = fmt.Errorf("%s: writing failed (%v) and the partial interactions could not be removed (%v); recording stopped", s.path, err, terr)
		}
		return 0, fmt.Errorf("%s: %w", s.path, err)
	}
	s.size += int64(n)
	first := s.loaded + len(s.items)
	start := int64(0)
	for i, end := range ends {
		s.items = append(s.items, item{seq: seqs[i], off: off + start, n: end - start})
		start = end
	}
	s.kickSyncer()
	return first, nil
}

// appendSpilled writes an interaction whose response body has spilt:
// streamed in from a temporary file, or finished in place (see lease).
func (s *sink) appendSpilled(seq uint64, in *cassette.Interaction, body *bodyBuffer) (int, error) {
	if l, ok := body.file.(*lease); ok {
		return s.appendLeased(seq, in, body, l)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return 0, s.broken
	}
	return s.appendSpilledLocked(seq, in, body)
}

// appendSpilledLocked is appendSpilled for a caller that holds s.mu.
func (s *sink) appendSpilledLocked(seq uint64, in *cassette.Interaction, body *bodyBuffer) (int, error) {
	s.revoke()
	if s.broken != nil {
		return 0, s.broken
	}
	off := s.size
	cw := &countWriter{w: s.f}
	bw := bufio.NewWriterSize(cw, 1<<16)
	err := encodeSpilled(bw, in, body)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		// Cut the half-written interaction off so the file still loads.
		if terr := s.f.Truncate(off); terr != nil {
			s.broken = fmt.Errorf("%s: writing failed (%v) and the partial interaction could not be removed (%v); recording stopped", s.path, err, terr)
		}
		return 0, fmt.Errorf("%s: %w", s.path, err)
	}
	s.size += cw.n
	s.items = append(s.items, item{seq: seq, off: off, n: cw.n})
	s.kickSyncer()
	return s.loaded + len(s.items) - 1, nil
}

func (s *sink) kickSyncer() {
	select {
	case s.kick <- struct{}{}:
	default: // a sync is already due
	}
}

// syncer fsyncs the file after appends until the sink closes. A lone append
// is synced at once; under load the syncer lets syncEvery pass between
// fsyncs, so one fsync covers every append of that time: an fsync per
// append would, under load, cost the machine more kernel journal work than
// the proxy's own and bound its throughput.
func (s *sink) syncer() {
	var first error
	var last time.Time
	for range s.kick {
		if wait := syncEvery - time.Since(last); wait > 0 {
			select {
			case <-time.After(wait):
			case <-s.closing:
				continue
			}
		}
		last = time.Now()
		if err := s.f.Sync(); err != nil && first == nil {
			first = fmt.Errorf("%s: %w", s.path, err)
			s.warn(fmt.Sprintf("%v: interactions are written but may not survive a power cut", first))
		}
	}
	s.done <- first
}

// syncEvery is the least time between two fsyncs of a cassette. A killed
// process loses nothing (each append is written before it returns); a power
// cut loses at most the appends of the last syncEvery plus the fsync under
// way. A variable so a test can make the syncer's turn long.
var syncEvery = 250 * time.Millisecond

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// close waits for pending writes, then puts this session's interactions in
// the order their requests started (they were appended as they finished),
// by copying their bytes into a new file that replaces the old one.
func (s *sink) close() error {
	s.qmu.Lock()
	s.closed = true
	s.qmu.Unlock()
	close(s.closing)
	s.pending.Wait()
	s.mu.Lock()
	s.dropLease() // a stream still under way is not recorded
	if s.patcher != nil {
		s.patcher.Close()
	}
	s.mu.Unlock()
	close(s.kick)
	syncErr := <-s.done
	defer s.f.Close()
	if err := s.f.Sync(); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	if syncErr != nil || s.broken != nil {
		return errors.Join(syncErr, s.broken)
	}
	if slices.IsSortedFunc(s.items, func(a, b item) int { return cmpSeq(a.seq, b.seq) }) {
		return nil
	}
	order := slices.Clone(s.items)
	slices.SortStableFunc(order, func(a, b item) int { return cmpSeq(a.seq, b.seq) })
	dir := filepath.Dir(s.path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(s.path)+".tmp*")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	// One buffer for every piece: io.Copy would take a new one per
	// interaction (bufio and os.File hand it down to a generic copy).
	buf := make([]byte, 1<<16)
	copyRange := func(off, n int64) error {
		_, err := io.CopyBuffer(struct{ io.Writer }{bw}, io.NewSectionReader(s.f, off, n), buf)
		return err
	}
	err = copyRange(0, s.base)
	for _, it := range order {
		if err == nil {
			err = copyRange(it.off, it.n)
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%s: putting interactions in request order: %w (the file holds them in the order they finished)", s.path, err)
	}
	return syncDir(dir)
}

func cmpSeq(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// toV4 rewrites a cassette the sink wrote as a go-vcr v3/v4 cassette.
func toV4(path string) error {
	c, err := cassette.Load(path)
	if err != nil {
		return err
	}
	if err := cassette.SaveV4(path, c); err != nil {
		return fmt.Errorf("%s: writing it as a go-vcr v4 cassette: %w", path, err)
	}
	return nil
}
