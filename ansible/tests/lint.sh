#!/usr/bin/env bash
# Lints every playbook: ansible-lint (production profile) and ansible-playbook --syntax-check; checks the node
# role's default replication factor against a few inventories (tests/replication-factor.yml, nothing contacted).
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

# The node role's default replication factor: 3 with three or more servers, 1 with fewer, and an override wins.
check_replication_factor() {  # INVENTORY EXPECTED [ARGS...]
  local inventory="$1" expected="$2"; shift 2
  if ansible-playbook -i "$inventory" tests/replication-factor.yml -e "fastccs_expected_replication_factor=$expected" "$@" >/dev/null; then
    echo "replication factor ok: $expected with $inventory $*"
  else
    echo "replication factor FAILED: expected $expected with $inventory $*" >&2
    status=1
  fi
}
check_replication_factor inventories/static-example/hosts.yml 3
check_replication_factor tests/inventories/two-servers/hosts.yml 1
check_replication_factor inventories/static-example/hosts.yml 1 -e fastccs_node_replication_factor=1

if ansible-lint --profile production --strict --offline; then
  echo "ansible-lint (production profile): clean"
else
  echo "ansible-lint FAILED" >&2
  status=1
fi
exit "$status"
