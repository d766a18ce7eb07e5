//go:build !unix

package main

import "testing"

func limitFileSize(t *testing.T, n string) { t.Fatal("no RLIMIT_FSIZE here") }

const canLimitFileSize = false
