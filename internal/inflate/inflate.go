// Package inflate decompresses untrusted gzip and zlib data under a size
// limit without holding more than the real decompressed size in memory, so
// a bomb costs time bounded by the limit and no memory.
package inflate

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
)

// ErrTooLarge is returned for data that decompresses to more than the limit.
var ErrTooLarge = errors.New("decompresses to more than the size limit")

// Gzip decompresses a gzip stream of at most limit bytes.
func Gzip(data []byte, limit int64) ([]byte, error) {
	return decompress(data, limit, func(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) })
}

// Zlib decompresses a zlib stream (HTTP's "deflate") of at most limit bytes.
func Zlib(data []byte, limit int64) ([]byte, error) {
	return decompress(data, limit, zlib.NewReader)
}

// decompress counts the decompressed size first, streaming into nothing,
// then decompresses again into a buffer of exactly that size: reading
// straight into a growing buffer would cost up to twice the limit before a
// bomb is refused.
func decompress(data []byte, limit int64, open func(io.Reader) (io.ReadCloser, error)) ([]byte, error) {
	r, err := open(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	n, err := io.Copy(io.Discard, io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, ErrTooLarge
	}
	r, err = open(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	out := make([]byte, n)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	return out, nil
}
