# Sourced by the test scripts: a private Python venv with pinned ansible and ansible-lint under ansible/.venv.
# Bumping a version below re-creates the venv.

ANSIBLE_VERSION="12.3.0"
ANSIBLE_LINT_VERSION="26.10.1"
VENV_DIR="$ANSIBLE_DIR/.venv"

ensure_venv() {
  local wanted="ansible==$ANSIBLE_VERSION ansible-lint==$ANSIBLE_LINT_VERSION"
  if [[ -x "$VENV_DIR/bin/ansible-lint" && "$(cat "$VENV_DIR/.fastccs-pins" 2>/dev/null)" == "$wanted" ]]; then
    export PATH="$VENV_DIR/bin:$PATH"
    return 0
  fi
  local python
  python="$(command -v python3.11 || command -v python3)"
  # Debian splits venv (and its bundled pip) out of python3: install it when missing (CI runs as root).
  if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
      echo "venv: installing python3-venv with apt-get" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    else
      echo "venv: python3 has no venv/ensurepip module; install python3-venv" >&2
      return 1
    fi
  fi
  echo "venv: creating $VENV_DIR with $wanted (a few minutes, ~800 MB)" >&2
  rm -rf "$VENV_DIR"
  "$python" -m venv "$VENV_DIR"
  "$VENV_DIR/bin/pip" install -q --disable-pip-version-check $wanted
  echo "$wanted" > "$VENV_DIR/.fastccs-pins"
  export PATH="$VENV_DIR/bin:$PATH"
}
