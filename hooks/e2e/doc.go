// Package e2e holds memkeep's end-to-end tests against the real Claude Code
// binary (issue 4, "End-to-end tests with the real client").
//
// Each test builds memkeep once, installs it in a throwaway git repository
// with `memkeep init --local --program <built binary>`, and drives the real
// `claude -p` (internal/claudetest) against a scripted Messages API server
// whose replies come from fixtures/e2e/memkeep-*.json. The tests then
// assert on the memory files, on git (the memory commit, the user's
// uncommitted work, fsck) and on the requests the server received, which is
// where what the hooks told the model shows up.
//
// The built binary's directory is put first on PATH for Claude Code, so the
// commands the Stop hook asks for ("    memkeep l4 reflect", …) are run by
// the scripted agent exactly as printed: that checks they are really
// copy-pasteable. The hooks themselves run the absolute path init wrote.
//
// The tests skip (visibly) without a Claude Code binary and under -short;
// see internal/claudetest. MEMKEEP_E2E_KEEP=DIR keeps a copy of each
// test's project and HOME (transcripts included) in DIR for debugging. They run one at a time: each starts Claude Code
// several times and the package must stay within a few minutes on 2 cores.
package e2e
