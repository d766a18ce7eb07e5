package proxy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// errLocked is what a second recorder of one cassette gets.
var errLocked = errors.New("another recorder is writing this cassette")

// cassetteLock is an exclusive lock on a cassette, held by one recorder from
// opening it to closing it: two processes appending to one file would tear
// each other's interactions. It is a lock file beside the cassette (the
// cassette itself is replaced by rename, which would drop a lock on it),
// holding the owner's pid and start time for the message the next one gets.
type cassetteLock struct {
	f    *os.File
	path string
}

// lockCassette takes the lock of the cassette at path, or fails at once
// naming who holds it.
func lockCassette(path string) (*cassetteLock, error) {
	name := path + ".lock"
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		if err := tryLock(f); err != nil {
			owner, _ := os.ReadFile(name)
			f.Close()
			who := strings.TrimSpace(string(owner))
			if who == "" {
				who = "another process"
			}
			return nil, fmt.Errorf("%w: %s holds %s; stop it or record to another cassette", errLocked, who, name)
		}
		// The holder before us may have removed the file between our open
		// and our lock: then we hold a lock on a file nobody else sees.
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 != nil || err2 != nil || !os.SameFile(held, now) {
			f.Close()
			continue
		}
		f.Truncate(0)
		fmt.Fprintf(f, "llmtck pid %d since %s\n", os.Getpid(), time.Now().Format(time.RFC3339))
		return &cassetteLock{f: f, path: name}, nil
	}
}

// release removes the lock file and lets go of the lock, in that order, so
// a recorder waiting on the old file retries on a fresh one.
func (l *cassetteLock) release() {
	if l == nil {
		return
	}
	os.Remove(l.path)
	l.f.Close()
}
