#!/usr/bin/env bash
# n8n's own verdict on n8n Cloud eligibility: `n8n-node cloud-support` (pinned @n8n/node-cli) prints
# "eligible" or "NOT eligible" (strict mode in package.json's n8n section, the tool's default
# eslint.config.mjs unchanged) but exits 0 either way. This exits 1 unless the package is eligible.
# Eligibility also needs `n8n-node lint` to pass (`npm run lint` runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(npx --no-install n8n-node cloud-support 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
echo "$out"
if grep -q 'Status: eligible' <<<"$out"; then
	echo "✅ eligible for n8n Cloud verification"
else
	echo "❌ n8n-node cloud-support: the package is not eligible (see above)" >&2
	exit 1
fi
