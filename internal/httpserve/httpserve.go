// Package httpserve holds what llmtck's own HTTP servers share: the
// protocols they speak.
package httpserve

import "net/http"

// Protocols are HTTP/1.1 and HTTP/2 cleartext with prior knowledge (h2c):
// some official SDKs (the AWS SDK for JavaScript v3 on Node) speak HTTP/2
// to an http:// endpoint without asking to upgrade first.
func Protocols() *http.Protocols {
	p := new(http.Protocols)
	p.SetHTTP1(true)
	p.SetUnencryptedHTTP2(true)
	return p
}
