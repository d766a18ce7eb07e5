package redact

import (
	"bytes"
)

// credentialNames are the JSON keys whose string value is a credential
// whatever its shape (Mistral, Cohere, Together and Azure keys have no
// prefix), lower-cased without '_', '-' and '.'.
var credentialNames = map[string]bool{
	"apikey": true, "xapikey": true, "apisecret": true, "secret": true, "clientsecret": true, "secretkey": true,
	"token": true, "accesstoken": true, "authtoken": true, "apitoken": true, "bearertoken": true, "refreshtoken": true,
	"password": true, "passwd": true,
}

// credentialWords are what every credential name holds; a value holding
// none costs one search per word.
var credentialWords = [][]byte{[]byte("key"), []byte("secret"), []byte("token"), []byte("passw")}

// credentialField finds the first live value under a credential-named
// JSON key, in JSON as it is or escaped inside a JSON string (a config
// file pasted into a prompt): its span in data.
func credentialField(data []byte) (start, end int, ok bool) {
	best := -1
	lower := lowerASCII(data, nil) // same length as data, whatever its bytes
	for _, w := range credentialWords {
		for i := 0; i < len(data); {
			j := bytes.Index(lower[i:], w)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(w)
			if s, e, found := fieldValueAt(data, at); found && (best < 0 || s < best) {
				best, end = s, e
			}
		}
	}
	return best, end, best >= 0
}

// fieldValueAt reads the JSON key around data[at] and, when it is a
// credential name, the string value after it.
func fieldValueAt(data []byte, at int) (start, end int, ok bool) {
	nameByte := func(c byte) bool { return tokenByte(c) || c == '.' }
	a := at
	for a > 0 && at-a < 40 && nameByte(data[a-1]) {
		a--
	}
	z := at
	for z < len(data) && z-at < 40 && nameByte(data[z]) {
		z++
	}
	if a == 0 || data[a-1] != '"' || z >= len(data) {
		return 0, 0, false
	}
	if z-a > 24 {
		return 0, 0, false
	}
	var buf [24]byte
	name := buf[:0]
	for _, c := range data[a:z] {
		switch {
		case c == '_' || c == '-' || c == '.':
		case c >= 'A' && c <= 'Z':
			name = append(name, c+'a'-'A')
		default:
			name = append(name, c)
		}
	}
	if !credentialNames[string(name)] {
		return 0, 0, false
	}
	k := z
	if data[k] == '\\' { // an escaped closing quote
		k++
	}
	if k >= len(data) || data[k] != '"' {
		return 0, 0, false
	}
	k++
	for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
		k++
	}
	if k >= len(data) || data[k] != ':' {
		return 0, 0, false
	}
	k++
	for k < len(data) && (data[k] == ' ' || data[k] == '\t' || data[k] == '\n' || data[k] == '\r') {
		k++
	}
	if k < len(data) && data[k] == '\\' {
		k++
	}
	if k >= len(data) || data[k] != '"' {
		return 0, 0, false
	}
	k++
	v := k
	for v < len(data) && v-k <= 512 && data[v] != '"' && data[v] != '\\' && data[v] > ' ' {
		v++
	}
	if v >= len(data) || data[v] != '"' && data[v] != '\\' || !liveValue(data[k:v]) {
		return 0, 0, false
	}
	return k, v, true
}

// liveValue reports whether v may be a generated credential: long enough,
// letters and digits, varied, and not a placeholder.
func liveValue(v []byte) bool {
	if len(v) < 16 || len(v) > 512 {
		return false
	}
	var upper, lower, digit bool
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	kinds := 0
	for _, k := range []bool{upper, lower, digit} {
		if k {
			kinds++
		}
	}
	return (upper || lower) && kinds >= 2 && entropy(v) > 3 && !Placeholder(string(v))
}

// decodeView is data with percent escapes (%2B) and JSON escapes of
// ASCII (\/, \u002b) decoded, and for each byte of it the offset in data
// its escape starts at (one more, at the end, for len(data)); nil when
// data holds none.
func decodeView(data []byte) ([]byte, []int) {
	first := -1
	for i := 0; i+2 < len(data); i++ {
		if data[i] == '%' && isHex(data[i+1]) && isHex(data[i+2]) || data[i] == '\\' && (data[i+1] == '/' || data[i+1] == 'u') {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, nil
	}
	// A form body (no JSON in sight) encodes a space as '+'.
	form := bytes.IndexByte(data, '=') >= 0 && bytes.IndexAny(data, "\"{") < 0
	view := make([]byte, 0, len(data))
	at := make([]int, 0, len(data)+1)
	for i := 0; i < len(data); {
		switch {
		case data[i] == '%' && i+2 < len(data) && isHex(data[i+1]) && isHex(data[i+2]):
			view, at = append(view, unhex(data[i+1])<<4|unhex(data[i+2])), append(at, i)
			i += 3
		case form && data[i] == '+':
			view, at = append(view, ' '), append(at, i)
			i++
		case data[i] == '\\' && i+1 < len(data) && data[i+1] == '/':
			view, at = append(view, '/'), append(at, i)
			i += 2
		case data[i] == '\\' && i+5 < len(data) && data[i+1] == 'u' && data[i+2] == '0' && data[i+3] == '0' && isHex(data[i+4]) && isHex(data[i+5]) && data[i+4] < '8':
			view, at = append(view, unhex(data[i+4])<<4|unhex(data[i+5])), append(at, i)
			i += 6
		default:
			view, at = append(view, data[i]), append(at, i)
			i++
		}
	}
	return view, append(at, len(data))
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
