#!/usr/bin/env bash
# Packs the node and client distributions that deploy.yml and stress.yml copy to the hosts, from the local build:
#   target/dist/fastccs-node.tar.gz     lib/ = the jars of server-patch/target/node-classpath.txt (Cassandra 5.0.9
#                                       and its dependencies) plus lib/fastccs-agent.jar (the plugin)
#   target/dist/fastccs-node.classpath  those jar names in classpath order (the playbook builds -cp from it)
#   target/dist/fastccs-client.tar.gz   lib/ = the cli module's jar and its runtime classpath (stress, experiment, read, write, shell)
#   target/dist/fastccs-client.classpath
# target/ is relative to ansible/ and ignored by git. The archives are reproducible (sorted names, fixed mtimes and
# owners, gzip without a timestamp) and replaced only when their content changed, so deploy.yml stays idempotent.
# Prints "changed: NAME" or "unchanged: NAME" per archive. Needs a build first: mvn -B -DskipTests package
set -euo pipefail

ANSIBLE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$ANSIBLE_DIR/.." && pwd)"
OUT="${FASTCCS_DIST_DIR:-$ANSIBLE_DIR/target/dist}"

node_cp="$ROOT/server-patch/target/node-classpath.txt"
agent_jar="$(ls "$ROOT"/server-patch/target/fastccs-server-patch-*-agent.jar 2>/dev/null | head -1 || true)"
client_cp="$ROOT/cli/target/runtime-classpath.txt"
client_jar="$(ls "$ROOT"/cli/target/fastccs-cli-*.jar 2>/dev/null | head -1 || true)"
for f in "$node_cp" "$agent_jar" "$client_cp" "$client_jar"; do
  if [[ -z "$f" || ! -f "$f" ]]; then
    echo "build-dist: missing build output ${f:-(agent or cli jar)}; run first: (cd $ROOT && mvn -B -DskipTests package)" >&2
    exit 2
  fi
done

# pack NAME CLASSPATH_FILE FIRST_JAR AGENT_JAR: lib/ holds FIRST_JAR (if any) then the classpath's jars, and
# AGENT_JAR (if any) as lib/fastccs-agent.jar.
pack() {
  local name="$1" classpath_file="$2" first_jar="$3" agent="$4"
  local stage; stage="$(mktemp -d)"
  trap 'rm -rf "$stage"' RETURN
  mkdir -p "$stage/lib"
  local -a jars=()
  if [[ -n "$first_jar" ]]; then jars+=("$first_jar"); fi
  local -a cp_jars
  mapfile -t cp_jars < <(tr ':' '\n' < "$classpath_file")
  jars+=("${cp_jars[@]}")
  : > "$stage/$name.classpath"
  local jar base
  for jar in "${jars[@]}"; do
    if [[ -z "$jar" ]]; then continue; fi
    base="$(basename "$jar")"
    if [[ -e "$stage/lib/$base" ]]; then
      echo "build-dist: two jars named $base on the $name classpath" >&2
      exit 3
    fi
    cp "$jar" "$stage/lib/$base"
    echo "$base" >> "$stage/$name.classpath"
  done
  if [[ -n "$agent" ]]; then cp "$agent" "$stage/lib/fastccs-agent.jar"; fi
  tar -C "$stage" --sort=name --mtime='2020-01-01 00:00:00Z' --owner=0 --group=0 --numeric-owner \
      --mode='u+rw,go+r,go-w' -cf - lib | gzip -n -9 > "$stage/$name.tar.gz"
  mkdir -p "$OUT"
  local file
  for file in "$name.tar.gz" "$name.classpath"; do
    if cmp -s "$stage/$file" "$OUT/$file"; then
      echo "unchanged: $file"
    else
      mv "$stage/$file" "$OUT/$file"
      echo "changed: $file"
    fi
  done
}

pack fastccs-node "$node_cp" "" "$agent_jar"
pack fastccs-client "$client_cp" "$client_jar" ""
