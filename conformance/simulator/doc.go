// Package simulator plays scripted scenarios as simulated providers: it
// serves each step's response in turn, judges every request by the wire's
// rules, and answers a violation with the provider's own status and error
// body. A Session is what a harness is given to play one scenario.
package simulator
