#!/usr/bin/env bash
# Installs the pinned native Claude Code binary that the end-to-end tests
# drive, and prints its path on stdout (everything else goes to stderr, so
# `bin=$(bash .ci/install-claude.sh)` works).
#
# Why the platform package: the wrapper package @anthropic-ai/claude-code
# only becomes runnable after its postinstall copies the native binary in,
# while @anthropic-ai/claude-code-linux-x64 ships that binary as a plain
# file. `npm pack` fetches the tarball without running any install scripts,
# and the binary runs straight from the extracted folder.
#
# Idempotent: when the cache folder already holds a binary whose --version
# reports the pinned version, nothing is downloaded.
#
# Environment:
#   MEMKEEP_CLAUDE_VERSION  version to install (default 2.1.330)
#   MEMKEEP_CLAUDE_DIR      cache folder (default ~/.cache/memkeep/claude-VERSION);
#                           internal/claudetest looks in the same default place.
set -euo pipefail

version="${MEMKEEP_CLAUDE_VERSION:-2.1.330}"
pkg="@anthropic-ai/claude-code-linux-x64"
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
dir="${MEMKEEP_CLAUDE_DIR:-$cache/memkeep/claude-$version}"
bin="$dir/claude"

log() { echo "install-claude: $*" >&2; }

case "$(uname -s)/$(uname -m)" in
Linux/x86_64) ;;
*)
	log "only linux/x86_64 is supported (this is $(uname -s)/$(uname -m))"
	exit 1
	;;
esac

# A binary that runs and reports the pinned version is good enough; the
# version line looks like "2.1.330 (Claude Code)".
if [ -x "$bin" ]; then
	got=$("$bin" --version 2>/dev/null | awk '{print $1; exit}') || got=""
	if [ "$got" = "$version" ]; then
		echo "$bin"
		exit 0
	fi
	log "found $bin reporting '${got:-nothing}', want $version; reinstalling"
fi

command -v npm >/dev/null || {
	log "npm is needed to fetch $pkg@$version"
	exit 1
}

# Fail with a clear message when the pin does not exist on the registry
# (rather than a confusing npm pack error).
if ! npm view "$pkg@$version" version 2>/dev/null | grep -qx "$version"; then
	log "$pkg@$version is not on the registry; available:"
	npm view "$pkg" versions 2>/dev/null | tail -5 >&2 || true
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

log "fetching $pkg@$version"
tgz=$(cd "$tmp" && npm pack --silent "$pkg@$version" 2>/dev/null | tail -1)
[ -f "$tmp/$tgz" ] || {
	log "npm pack produced no tarball"
	exit 1
}
tar -xzf "$tmp/$tgz" -C "$tmp"
[ -f "$tmp/package/claude" ] || {
	log "tarball has no package/claude"
	exit 1
}

# Assemble next to the destination and swap in with a rename, so a reader
# (or a concurrent install) never sees a half-copied binary.
mkdir -p "$(dirname "$dir")"
stage=$(mktemp -d "$dir.tmp.XXXXXX")
cp -a "$tmp/package/." "$stage/"
chmod 0755 "$stage/claude"
got=$("$stage/claude" --version 2>/dev/null | awk '{print $1; exit}') || got=""
if [ "$got" != "$version" ]; then
	rm -rf "$stage"
	log "installed binary reports '${got:-nothing}', want $version"
	exit 1
fi
rm -rf "$dir"
mv "$stage" "$dir"
log "installed $version in $dir"
echo "$bin"
