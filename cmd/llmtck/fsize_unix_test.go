//go:build unix

package main

import (
	"os/signal"
	"strconv"
	"syscall"
	"testing"
)

// limitFileSize makes writes past n bytes in any file fail (EFBIG), as a
// full disk fails them, for this process only.
func limitFileSize(t *testing.T, n string) {
	limit, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	signal.Ignore(syscall.SIGXFSZ) // else the first write past the limit kills the process
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		t.Fatal(err)
	}
}

const canLimitFileSize = true
