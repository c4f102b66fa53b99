package l1

import (
	"github.com/memkeep/memkeep/internal/jsonscan"
)

// Most of a transcript's bytes are lines memkeep drops (progress, snapshots)
// or fields it never reads (usage, signatures, toolUseResult file bodies).
// Decoding them would cost far more than reading them, so a line is first
// split into its top-level members by a small scanner that only finds where
// each value starts and ends; only the members a refiner needs are decoded.

// topFields are the top-level members of a transcript line that L1 reads.
type topFields struct {
	typ           string // "user", "assistant", "progress", …
	message       []byte // raw "message" value
	toolUseResult []byte // raw "toolUseResult" value
	timestamp     string
	cwd           string
	sessionID     string
	agentID       string
	version       string // the Claude Code version that wrote the line
	sidechain     bool
	compact       bool // isCompactSummary
	meta          bool // isMeta
}

// scanTop reads the top-level members of one JSON object line. Values of
// members it does not need are skipped without decoding.
func scanTop(line []byte) (topFields, error) {
	var f topFields
	err := jsonscan.Members(line, func(key, val []byte) {
		switch string(key) {
		case "type":
			f.typ = jsonscan.String(val)
		case "message":
			f.message = val
		case "toolUseResult":
			f.toolUseResult = val
		case "timestamp":
			f.timestamp = jsonscan.String(val)
		case "cwd":
			f.cwd = jsonscan.String(val)
		case "sessionId":
			f.sessionID = jsonscan.String(val)
		case "agentId":
			f.agentID = jsonscan.String(val)
		case "version":
			f.version = jsonscan.String(val)
		case "isSidechain":
			f.sidechain = string(val) == "true"
		case "isCompactSummary":
			f.compact = string(val) == "true"
		case "isMeta":
			f.meta = string(val) == "true"
		}
	})
	return f, err
}
