#!/usr/bin/env bash
# A real run of the playbooks on this machine (inventories/local: three nodes on 127.0.3.1-3, one client):
#   1. deploy.yml        nodes started one by one, seed first; waits until every node serves FastCCS
#   2. a FastCCS write and read through the deployed client tools
#   3. stress.yml        the 20 s "smoke" experiment; results in results/tmp/ansible-local/
#   4. deploy.yml again  must report changed=0 on every host (idempotence)
#   5. stop.yml          stops the nodes (by their pidfiles) and removes /tmp/fastccs-ansible
# Fails on the first step that fails. --keep leaves the cluster running (stop it with stop.yml).
# Needs JDK 17 and Maven (it builds the project if the jars are missing), python3 with venv, ~3 GB RAM free.
# Takes 10-20 minutes on a 2-core machine.
set -euo pipefail

ANSIBLE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$ANSIBLE_DIR/.." && pwd)"
LOCAL_ROOT=/tmp/fastccs-ansible
RESULTS="$ROOT/results/tmp/ansible-local"
LOGS="$ANSIBLE_DIR/target/local-run"
KEEP=false
[[ "${1:-}" == "--keep" ]] && KEEP=true

# shellcheck source=ansible/tests/venv.sh
source "$ANSIBLE_DIR/tests/venv.sh"
ensure_venv
export ANSIBLE_CONFIG="$ANSIBLE_DIR/ansible.cfg" ANSIBLE_FORCE_COLOR=0
cd "$ANSIBLE_DIR"
mkdir -p "$LOGS"

playbook() {  # playbook NAME LOG [ARGS...]: runs it, keeps the output in target/local-run/LOG
  local name="$1" log="$LOGS/$2"; shift 2
  echo "== ansible-playbook -i inventories/local $name $* (log: ${log#"$ROOT"/})"
  local start=$SECONDS
  if ! ansible-playbook -i inventories/local "$name" "$@" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "local-run: $name failed (log: $log)" >&2
    return 1
  fi
  sed -n '/^PLAY RECAP/,/^$/p' "$log"
  echo "   ($((SECONDS - start)) s)"
}

stop_cluster() {
  if [[ -d "$LOCAL_ROOT" ]]; then
    playbook stop.yml stop.log || true
    rm -rf "$LOCAL_ROOT"
  fi
}

if [[ ! -f "$ROOT/server-patch/target/node-classpath.txt" || ! -f "$ROOT/stress/target/runtime-classpath.txt" ]]; then
  echo "== building the project (mvn -B -q -DskipTests package)"
  (cd "$ROOT" && mvn -B -q -DskipTests package)
fi

stop_cluster  # nodes left over from an earlier --keep run
$KEEP || trap stop_cluster EXIT

playbook deploy.yml deploy-1.log

echo "== a transaction through the deployed client tools"
client="$LOCAL_ROOT/client1/bin/fastccs"
value="written-at-$(date +%s)"
# The write's causal token makes the read (another session, through another node) see the write.
token="$("$client" write "local-run-key=$value" --host 127.0.3.2:9142 --print-token | tail -n 1)"
"$client" read local-run-key --host 127.0.3.3:9142 --token "$token" | tee "$LOGS/read.out"
grep -qx "local-run-key=$value" "$LOGS/read.out" || { echo "local-run: the read did not return the written value" >&2; exit 1; }

playbook stress.yml stress.log -e fastccs_client_experiment=smoke -e "fastccs_results_dir=$RESULTS"
run_dir="$(ls -td "$RESULTS"/smoke-* | sed -n 1p)"
echo "   results: ${run_dir#"$ROOT"/}: $(cd "$run_dir" && find . -type f | sort | tr '\n' ' ')"
grep '^Op rate' "$run_dir"/*/summary.txt

playbook deploy.yml deploy-2.log
if grep -E '^[^ ]+ +: ok=' "$LOGS/deploy-2.log" | grep -qv 'changed=0 '; then
  echo "local-run: the second deploy.yml run changed something: not idempotent" >&2
  grep -B1 -E '^changed:' "$LOGS/deploy-2.log" >&2 || true
  exit 1
fi
echo "== second deploy.yml run: changed=0 on every host"
$KEEP && echo "== the cluster keeps running (--keep); stop it with: ansible-playbook -i inventories/local stop.yml"
echo "local-run: ok"
