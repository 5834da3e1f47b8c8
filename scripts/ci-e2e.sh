#!/usr/bin/env bash
# End-to-end tests for CI (and anyone): the package in a real n8n and in the editor in Chromium.
#   bash scripts/ci-e2e.sh
# Installs what is missing, reusing what is there: Debian's Chromium (apt), the pinned n8n into
# .n8n-local/ (scripts/n8n-local.js; about 6 minutes the first time), then builds the package and
# runs `npm run test:e2e`. Run after `npm ci`.
# Env: N8N_E2E_VERSION (another n8n release, or `newest`: see scripts/n8n-local.js), E2E_TIMEOUT
# (default 45m), N8N_LOCAL_DIR (where the n8n installs go).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "[ci-e2e] installing chromium (apt)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
echo "[ci-e2e] $("${CHROMIUM_PATH:-/usr/bin/chromium}" --version 2>/dev/null || echo chromium) ($(elapsed))"

echo "[ci-e2e] n8n ${N8N_E2E_VERSION:-(pinned)}: install if missing"
node scripts/n8n-local.js >/dev/null
echo "[ci-e2e] n8n ready ($(elapsed))"

timeout --kill-after=30s "${E2E_TIMEOUT:-45m}" npm run test:e2e -- --ci
echo "[ci-e2e] end-to-end tests passed in $(elapsed)"
