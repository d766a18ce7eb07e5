package cassetteyaml

import "unsafe"

// bytesString views b as a string without copying it, so a body is encoded
// straight from the caller's bytes instead of from a copy. The encoder only
// reads the string, and only while it runs.
func bytesString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
