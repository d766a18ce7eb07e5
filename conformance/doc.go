// Package conformance judges provider traffic against the wire rules: the
// check catalogue, its runner and reports, the simulated providers that
// play scripted scenarios, and the go test helpers for harness repositories.
//
// A harness repository tests itself with Run, which plays every bundled
// scenario (package scenario) against a Simulator and reports each check as
// a subtest named by its ID:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, func(t *testing.T, s *conformance.Session) {
//			// point the agent at s.BaseURL(traffic.WireAnthropic), register
//			// s.Tools, send each s.Turns[i].Prompt, pass a cancel func to
//			// s.OnCancel.
//		}, conformance.Capabilities("anthropic", "cancel"))
//	}
//
// Recorded traffic is judged with CheckCassette, CheckPaths and Lint; what
// a harness sends is pinned with Golden.
package conformance
