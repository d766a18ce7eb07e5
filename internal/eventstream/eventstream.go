// Package eventstream reads and writes AWS event-stream messages
// (application/vnd.amazon.eventstream), the binary framing Amazon Bedrock
// streams ConverseStream and InvokeModelWithResponseStream responses in.
//
// A message is a prelude (total length and headers length, big-endian
// uint32, then a CRC-32 of those 8 bytes), typed headers, a payload, and a
// CRC-32 of everything before it.
package eventstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"
)

// Limits a decoder holds frames to, as the AWS SDKs do.
const (
	preludeLen  = 12
	trailerLen  = 4
	minFrameLen = preludeLen + trailerLen
	// MaxFrameLen is the largest message the AWS SDKs accept (16 MiB).
	MaxFrameLen = 16 << 20
	// MaxHeadersLen is the largest headers section they accept (128 KiB).
	MaxHeadersLen = 128 << 10
)

// Message is one event-stream message.
type Message struct {
	Headers []Header
	Payload []byte
}

// Header is one typed header. Value holds the value as its type has it:
// bool, int8, int16, int32, int64, []byte, string, time.Time or [16]byte.
type Header struct {
	Name  string
	Type  ValueType
	Value any
}

// ValueType is a header value's wire type.
type ValueType byte

// The header value types.
const (
	TypeTrue ValueType = iota
	TypeFalse
	TypeByte
	TypeShort
	TypeInt
	TypeLong
	TypeBytes
	TypeString
	TypeTimestamp
	TypeUUID
)

// Get returns the value of the header named name, and whether there is one.
func (m *Message) Get(name string) (any, bool) {
	for _, h := range m.Headers {
		if h.Name == name {
			return h.Value, true
		}
	}
	return nil, false
}

// String returns the string value of the header named name, or "".
func (m *Message) String(name string) string {
	v, _ := m.Get(name)
	s, _ := v.(string)
	return s
}

// Error is a frame that does not decode, at a byte offset of the stream.
type Error struct {
	Offset int
	Msg    string
	// Truncated is set when the stream ends inside the frame: a cut, not
	// a corruption.
	Truncated bool
}

func (e *Error) Error() string { return fmt.Sprintf("event stream: byte %d: %s", e.Offset, e.Msg) }

// Unwrap makes errors.Is(err, ErrTruncated) tell a cut stream.
func (e *Error) Unwrap() error {
	if e.Truncated {
		return ErrTruncated
	}
	return nil
}

// ErrTruncated is wrapped by errors about a stream that ends inside a frame.
var ErrTruncated = errors.New("truncated")

// Decode reads every message of a stream. It stops at the first frame that
// does not decode and returns the messages before it with the error, so a
// stream cut short still yields what arrived whole.
func Decode(b []byte) ([]Message, error) {
	var out []Message
	for off := 0; off < len(b); {
		m, n, err := decodeAt(b, off)
		if err != nil {
			return out, err
		}
		out = append(out, m)
		off += n
	}
	return out, nil
}

// Offsets returns the byte offset of every whole frame of a stream, and the
// offset where it stops being one (len(b) for a clean stream).
func Offsets(b []byte) ([]int, int) {
	var out []int
	off := 0
	for off < len(b) {
		_, n, err := decodeAt(b, off)
		if err != nil {
			break
		}
		out = append(out, off)
		off += n
	}
	return out, off
}

// Looks reports whether b starts like an event-stream message: a prelude
// whose lengths are plausible and whose CRC holds.
func Looks(b []byte) bool {
	if len(b) < preludeLen {
		return false
	}
	total, headers := binary.BigEndian.Uint32(b[0:4]), binary.BigEndian.Uint32(b[4:8])
	return total >= minFrameLen && total <= MaxFrameLen && headers <= total-minFrameLen &&
		crc32.ChecksumIEEE(b[0:8]) == binary.BigEndian.Uint32(b[8:12])
}

// decodeAt decodes the message at b[off:] and returns it with its length.
func decodeAt(b []byte, off int) (Message, int, error) {
	rest := b[off:]
	fail := func(at int, format string, args ...any) (Message, int, error) {
		return Message{}, 0, &Error{Offset: off + at, Msg: fmt.Sprintf(format, args...)}
	}
	if len(rest) < preludeLen {
		return Message{}, 0, &Error{Offset: off, Msg: fmt.Sprintf("%v: %d bytes left, a prelude takes %d", ErrTruncated, len(rest), preludeLen), Truncated: true}
	}
	total := binary.BigEndian.Uint32(rest[0:4])
	headersLen := binary.BigEndian.Uint32(rest[4:8])
	if got, want := crc32.ChecksumIEEE(rest[0:8]), binary.BigEndian.Uint32(rest[8:12]); got != want {
		return fail(8, "prelude CRC is %08x, the prelude's bytes give %08x", want, got)
	}
	switch {
	case total < minFrameLen:
		return fail(0, "message length %d is shorter than a prelude and a CRC (%d)", total, minFrameLen)
	case total > MaxFrameLen:
		return fail(0, "message length %d is over the %d-byte limit", total, MaxFrameLen)
	case headersLen > MaxHeadersLen:
		return fail(4, "headers length %d is over the %d-byte limit", headersLen, MaxHeadersLen)
	case headersLen > total-minFrameLen:
		return fail(4, "headers length %d does not fit in a message of %d bytes", headersLen, total)
	case int(total) > len(rest):
		return Message{}, 0, &Error{Offset: off, Msg: fmt.Sprintf("%v: message of %d bytes, %d left", ErrTruncated, total, len(rest)), Truncated: true}
	}
	frame := rest[:total]
	if got, want := crc32.ChecksumIEEE(frame[:total-trailerLen]), binary.BigEndian.Uint32(frame[total-trailerLen:]); got != want {
		return fail(int(total-trailerLen), "message CRC is %08x, the message's bytes give %08x", want, got)
	}
	headers, err := decodeHeaders(frame[preludeLen:preludeLen+headersLen], off+preludeLen)
	if err != nil {
		return Message{}, 0, err
	}
	payload := frame[preludeLen+headersLen : total-trailerLen]
	return Message{Headers: headers, Payload: payload}, int(total), nil
}

func decodeHeaders(b []byte, base int) ([]Header, error) {
	var out []Header
	for i := 0; i < len(b); {
		fail := func(format string, args ...any) ([]Header, error) {
			return nil, &Error{Offset: base + i, Msg: fmt.Sprintf(format, args...)}
		}
		nameLen := int(b[i])
		if nameLen == 0 || i+1+nameLen+1 > len(b) {
			return fail("header name of %d bytes does not fit in the headers", nameLen)
		}
		name := string(b[i+1 : i+1+nameLen])
		i += 1 + nameLen
		typ := ValueType(b[i])
		i++
		need := func(n int) bool { return i+n <= len(b) }
		var v any
		switch typ {
		case TypeTrue:
			v = true
		case TypeFalse:
			v = false
		case TypeByte:
			if !need(1) {
				return fail("header %q: byte value cut off", name)
			}
			v, i = int8(b[i]), i+1
		case TypeShort:
			if !need(2) {
				return fail("header %q: short value cut off", name)
			}
			v, i = int16(binary.BigEndian.Uint16(b[i:])), i+2
		case TypeInt:
			if !need(4) {
				return fail("header %q: int value cut off", name)
			}
			v, i = int32(binary.BigEndian.Uint32(b[i:])), i+4
		case TypeLong:
			if !need(8) {
				return fail("header %q: long value cut off", name)
			}
			v, i = int64(binary.BigEndian.Uint64(b[i:])), i+8
		case TypeTimestamp:
			if !need(8) {
				return fail("header %q: timestamp value cut off", name)
			}
			v, i = time.UnixMilli(int64(binary.BigEndian.Uint64(b[i:]))).UTC(), i+8
		case TypeBytes, TypeString:
			if !need(2) {
				return fail("header %q: value length cut off", name)
			}
			n := int(binary.BigEndian.Uint16(b[i:]))
			i += 2
			if !need(n) {
				return fail("header %q: value of %d bytes does not fit in the headers", name, n)
			}
			if typ == TypeString {
				v = string(b[i : i+n])
			} else {
				v = append([]byte(nil), b[i:i+n]...)
			}
			i += n
		case TypeUUID:
			if !need(16) {
				return fail("header %q: uuid value cut off", name)
			}
			var u [16]byte
			copy(u[:], b[i:i+16])
			v, i = u, i+16
		default:
			return fail("header %q has value type %d, expected 0 to 9", name, typ)
		}
		out = append(out, Header{Name: name, Type: typ, Value: v})
	}
	return out, nil
}

// Append encodes m and appends it to dst. Header values must be of the Go
// type their ValueType names.
func Append(dst []byte, m Message) ([]byte, error) {
	var hb []byte
	for _, h := range m.Headers {
		if len(h.Name) == 0 || len(h.Name) > 255 {
			return dst, fmt.Errorf("event stream: header name %q: must be 1 to 255 bytes", h.Name)
		}
		hb = append(hb, byte(len(h.Name)))
		hb = append(hb, h.Name...)
		hb = append(hb, byte(h.Type))
		var ok bool
		switch h.Type {
		case TypeTrue, TypeFalse:
			ok = true
		case TypeByte:
			var v int8
			v, ok = h.Value.(int8)
			hb = append(hb, byte(v))
		case TypeShort:
			var v int16
			v, ok = h.Value.(int16)
			hb = binary.BigEndian.AppendUint16(hb, uint16(v))
		case TypeInt:
			var v int32
			v, ok = h.Value.(int32)
			hb = binary.BigEndian.AppendUint32(hb, uint32(v))
		case TypeLong:
			var v int64
			v, ok = h.Value.(int64)
			hb = binary.BigEndian.AppendUint64(hb, uint64(v))
		case TypeTimestamp:
			var v time.Time
			v, ok = h.Value.(time.Time)
			hb = binary.BigEndian.AppendUint64(hb, uint64(v.UnixMilli()))
		case TypeString:
			var v string
			v, ok = h.Value.(string)
			ok = ok && len(v) <= 0xffff
			hb = binary.BigEndian.AppendUint16(hb, uint16(len(v)))
			hb = append(hb, v...)
		case TypeBytes:
			var v []byte
			v, ok = h.Value.([]byte)
			ok = ok && len(v) <= 0xffff
			hb = binary.BigEndian.AppendUint16(hb, uint16(len(v)))
			hb = append(hb, v...)
		case TypeUUID:
			var v [16]byte
			v, ok = h.Value.([16]byte)
			hb = append(hb, v[:]...)
		}
		if !ok {
			return dst, fmt.Errorf("event stream: header %q: value %T does not fit type %d", h.Name, h.Value, h.Type)
		}
	}
	total := preludeLen + len(hb) + len(m.Payload) + trailerLen
	if len(hb) > MaxHeadersLen || total > MaxFrameLen {
		return dst, fmt.Errorf("event stream: message of %d bytes (headers %d) is over the limits", total, len(hb))
	}
	start := len(dst)
	dst = binary.BigEndian.AppendUint32(dst, uint32(total))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(hb)))
	dst = binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:start+8]))
	dst = append(dst, hb...)
	dst = append(dst, m.Payload...)
	return binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:])), nil
}

// Event is a convenience for the messages Bedrock sends: an event of the
// given type with a JSON payload (:message-type event, :content-type
// application/json).
func Event(eventType string, payload []byte) Message {
	return Message{Headers: []Header{
		{Name: ":event-type", Type: TypeString, Value: eventType},
		{Name: ":content-type", Type: TypeString, Value: "application/json"},
		{Name: ":message-type", Type: TypeString, Value: "event"},
	}, Payload: payload}
}
