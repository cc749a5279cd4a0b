#!/usr/bin/env bash
# Lints every playbook: ansible-lint (production profile) and ansible-playbook --syntax-check.
# Installs ansible and ansible-lint with pip into ansible/.venv (ignored by git) on first use.
# Usage: ansible/tests/lint.sh     (from anywhere; exits non-zero on any finding)
set -euo pipefail

ANSIBLE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=ansible/tests/venv.sh
source "$ANSIBLE_DIR/tests/venv.sh"
ensure_venv

cd "$ANSIBLE_DIR"
export ANSIBLE_CONFIG="$ANSIBLE_DIR/ansible.cfg"

status=0
for playbook in *.yml; do
  # The AWS inventory plugin needs credentials even for a syntax check: use the static example inventory.
  if ansible-playbook -i inventories/static-example/hosts.yml --syntax-check "$playbook" >/dev/null; then
    echo "syntax-check ok: $playbook"
  else
    echo "syntax-check FAILED: $playbook" >&2
    status=1
  fi
done

if ansible-lint --profile production --strict --offline; then
  echo "ansible-lint (production profile): clean"
else
  echo "ansible-lint FAILED" >&2
  status=1
fi
exit "$status"
