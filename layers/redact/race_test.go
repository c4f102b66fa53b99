//go:build race

package redact

// raceEnabled: the race detector makes sync.Pool drop items, so the
// regexp package allocates where it normally would not.
const raceEnabled = true
