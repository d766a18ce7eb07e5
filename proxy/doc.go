// Package proxy records LLM provider traffic into cassettes and serves it
// back: a base-URL recorder, a forward proxy that intercepts provider hosts
// with its own CA, and a replay server that never touches the network.
package proxy
