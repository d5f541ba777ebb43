#!/usr/bin/env bash
# attest-subjects.sh SITE: prints, one per line, what actions/attest
# (subject-path) attests for a built site: the globs of the cards, the
# JWKS, the catalogs and the MCP Server Cards that match at least one
# file, and SITE/sha256sums.txt, which lists the SHA-256 of every
# published file. An attestation covers at most 1024 subjects; past that,
# it prints sha256sums.txt alone, which vouches for every file through its
# digest (README, "Provenance").
set -euo pipefail
dir=${1:?usage: attest-subjects.sh SITE}
if [ ! -f "$dir/sha256sums.txt" ]; then
	echo "attest-subjects.sh: $dir/sha256sums.txt is missing: is $dir a site agentcards built?" >&2
	exit 1
fi
shopt -s nullglob
max=1024
count=1 # sha256sums.txt
globs=()
for pattern in ".well-known/*.json" "agents/*/.well-known/*.json" "catalog/*.json" "mcp/*/server-card.json"; do
	files=("$dir"/$pattern)
	if [ "${#files[@]}" -gt 0 ]; then
		count=$((count + ${#files[@]}))
		globs+=("$dir/$pattern")
	fi
done
if [ "$count" -le "$max" ]; then
	printf '%s\n' "${globs[@]}"
fi
printf '%s\n' "$dir/sha256sums.txt"
