// Package lint judges live requests: each request of a conversation against
// the calls answered before it, as the recording proxy, replay --check and
// the simulated providers do, and turns a violation into the provider's own
// rejection.
package lint
