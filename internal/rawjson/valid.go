package rawjson

import (
	"bytes"
	"encoding/binary"
)

// maxDepth is encoding/json's limit on nesting: a deeper document is not
// valid to it, so it is not to Valid either.
const maxDepth = 10000

// Valid reports whether data is exactly one well-formed JSON value, as
// json.Valid does (FuzzValid holds the two to the same answer), several
// times faster on the long strings LLM traffic is made of: a string's quote
// and escapes are found with bytes.IndexByte and its control bytes eight at
// a time. Like json.Valid it does not check that strings are valid UTF-8.
func Valid(data []byte) bool {
	var stackBuf [32]byte
	stack := stackBuf[:0] // '{' or '[' per open container
	i := skipSpace(data, 0)
	for {
		// A value starts at i.
		if i >= len(data) {
			return false
		}
		switch c := data[i]; c {
		case '{', '[':
			stack = append(stack, c)
			if len(stack) > maxDepth {
				return false
			}
			i = skipSpace(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i = validKey(data, i); i < 0 {
					return false
				}
			}
			continue
		case '"':
			if i = validString(data, i); i < 0 {
				return false
			}
		case 't':
			if i = literal(data, i, "true"); i < 0 {
				return false
			}
		case 'f':
			if i = literal(data, i, "false"); i < 0 {
				return false
			}
		case 'n':
			if i = literal(data, i, "null"); i < 0 {
				return false
			}
		default:
			if i = validNumber(data, i); i < 0 {
				return false
			}
		}
		// A value ended at i: close containers until another value is due.
		for {
			i = skipSpace(data, i)
			if len(stack) == 0 {
				return i == len(data)
			}
			if i >= len(data) {
				return false
			}
			open := stack[len(stack)-1]
			if data[i] == open+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return false
			}
			i = skipSpace(data, i+1)
			if open == '{' {
				if i = validKey(data, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// validKey checks `"key" :` at i and returns the index of the value after
// it (past any space), or -1.
func validKey(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = validString(data, i); i < 0 {
		return -1
	}
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != ':' {
		return -1
	}
	return skipSpace(data, i+1)
}

func literal(data []byte, i int, word string) int {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// validNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func validNumber(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digits(data, i)
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		if i++; i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		i = digits(data, i)
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		i = digits(data, i)
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// noControlWord reports whether none of the eight bytes in w is below 0x20.
func noControlWord(w uint64) bool { return controlBits(w) == 0 }

// controlBits is not zero when a byte of w is below 0x20.
func controlBits(w uint64) uint64 { return (w - ones*0x20) &^ w & highs }

// noControl reports whether b holds no byte below 0x20: 32 bytes a turn
// while it can, since strings are most of what a body holds.
func noControl(b []byte) bool {
	i := 0
	for ; len(b)-i >= 32; i += 32 {
		p := b[i : i+32 : i+32]
		if controlBits(binary.LittleEndian.Uint64(p))|controlBits(binary.LittleEndian.Uint64(p[8:]))|
			controlBits(binary.LittleEndian.Uint64(p[16:]))|controlBits(binary.LittleEndian.Uint64(p[24:])) != 0 {
			return false
		}
	}
	for ; len(b)-i >= 8; i += 8 {
		if !noControlWord(binary.LittleEndian.Uint64(b[i:])) {
			return false
		}
	}
	for _, c := range b[i:] {
		if c < 0x20 {
			return false
		}
	}
	return true
}

// validString checks the string starting at data[i] (a quote) and returns
// the index just past it, or -1.
func validString(data []byte, i int) int {
	i++
	quote := -1 // the next quote at or after i, once found
	for {
		if quote < i {
			q := bytes.IndexByte(data[i:], '"')
			if q < 0 {
				return -1
			}
			quote = i + q
		}
		end := quote
		if b := bytes.IndexByte(data[i:quote], '\\'); b >= 0 {
			end = i + b
		}
		if !noControl(data[i:end]) {
			return -1
		}
		if end == quote {
			return quote + 1
		}
		// An escape at end.
		i = end
		if i+1 >= len(data) {
			return -1
		}
		switch data[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if len(data)-i < 6 {
				return -1
			}
			for _, h := range data[i+2 : i+6] {
				if !(isDigit(h) || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
					return -1
				}
			}
			i += 6
		default:
			return -1
		}
	}
}
