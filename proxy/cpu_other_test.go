//go:build !unix

package proxy

import "time"

// processCPU cannot be read here.
func processCPU() (time.Duration, bool) { return 0, false }
