#!/usr/bin/env bash
# End-to-end tests in n8n's queue mode, for CI (and anyone): Postgres, Redis, a main and two
# workers of the pinned n8n with the package (test/e2e/queue.*.test.js, the queue project of jest.config.js).
#   bash scripts/queue-e2e.sh
# Installs what is missing, reusing what is there: Debian's postgresql and redis-server (apt),
# the pinned n8n (scripts/n8n-local.js), then builds the package and runs `npm run test:queue`.
# Run after `npm ci`. Env: QUEUE_E2E_TIMEOUT (default 30m).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }

missing=()
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "[queue-e2e] installing ${missing[*]} (apt)"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "[queue-e2e] $(node -e 'const v = require("./scripts/lib/queue-services").versions(); console.log(`${v.postgres}, ${v.redis}`)') ($(elapsed))"

node scripts/n8n-local.js >/dev/null
echo "[queue-e2e] n8n ready ($(elapsed))"

timeout --kill-after=30s "${QUEUE_E2E_TIMEOUT:-30m}" npm run test:queue -- --ci
echo "[queue-e2e] queue-mode tests passed in $(elapsed)"
