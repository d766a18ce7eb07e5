// Package check is the core every check family builds on: a Check of the
// catalogue, the Traffic it judges, the Reporter it reports through, and the
// Finding it produces.
//
// A family package (conformance/checks/<family>) declares its checks as
// values with a Judge function; conformance/checks assembles them into the
// catalogue; Judge runs any selection of them over one cassette's traffic.
package check
