#!/usr/bin/env bash
# attest-subjects.sh SITE: prints, one per line, what actions/attest
# (subject-path) attests for a built site: the globs of the cards, the
# JWKS, the catalogs and the MCP Server Cards that match at least one
# file, and SITE/sha256sums.txt, which lists the SHA-256 of every
# published file. An attestation covers at most 1024 subjects (about 510
# agents, at two cards each); past that, it prints the root's
# .well-known/*.json (the root card, its legacy twin, the JWKS and the
# catalog: a handful) and sha256sums.txt, which vouches for every other
# file through its digest (README, "Provenance").
set -euo pipefail
dir=${1:?usage: attest-subjects.sh SITE}
if [ ! -f "$dir/sha256sums.txt" ]; then
	echo "attest-subjects.sh: $dir/sha256sums.txt is missing: is $dir a site agentcards built?" >&2
	exit 1
fi
shopt -s nullglob
max=1024
root=".well-known/*.json"
count=1 # sha256sums.txt
globs=()
rootCount=0
for pattern in "$root" "agents/*/.well-known/*.json" "catalog/*.json" "mcp/*/server-card.json"; do
	# shellcheck disable=SC2206 # the pattern is a glob, expanded on purpose
	files=("$dir"/$pattern)
	if [ "${#files[@]}" -gt 0 ]; then
		count=$((count + ${#files[@]}))
		globs+=("$dir/$pattern")
		if [ "$pattern" = "$root" ]; then
			rootCount=${#files[@]}
		fi
	fi
done
if [ "$count" -le "$max" ]; then
	printf '%s\n' "${globs[@]}"
elif [ "$rootCount" -gt 0 ] && [ $((rootCount + 1)) -le "$max" ]; then
	printf '%s\n' "$dir/$root"
fi
printf '%s\n' "$dir/sha256sums.txt"
