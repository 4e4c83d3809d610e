# Sourced by run.sh and test.sh: creates .venv and installs the given requirements file when it changed,
# and installs missing system packages with apt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

ensure_venv() {
    local requirements="$1"
    if [ ! -x "$VENV/bin/python" ]; then
        echo "==> creating the virtual environment in .venv" >&2
        python3 -m venv "$VENV"
    fi
    local stamp="$VENV/.installed-$(basename "$requirements")"
    if [ ! -f "$stamp" ] || [ "$requirements" -nt "$stamp" ] || [ "$ROOT/requirements.txt" -nt "$stamp" ] \
        || [ "$ROOT/requirements-build.txt" -nt "$stamp" ]; then
        echo "==> installing $(basename "$requirements") into .venv" >&2
        "$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar on -q -r "$requirements"
        touch "$stamp"
    fi
    # The project itself, editable, for the `part-du-chef` command (any folder); its requirements are above.
    local project_stamp="$VENV/.installed-project"
    if [ ! -x "$VENV/bin/part-du-chef" ] || [ ! -f "$project_stamp" ] || [ "$ROOT/pyproject.toml" -nt "$project_stamp" ]; then
        echo "==> installing the part-du-chef command into .venv" >&2
        "$VENV/bin/python" -m pip install --disable-pip-version-check -q --no-deps -e "$ROOT"
        touch "$project_stamp"
    fi
}

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
APT_UPDATED=0
apt_install() {
    if [ "$APT_UPDATED" = "0" ]; then
        $SUDO apt-get update -q >/dev/null
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "$@" </dev/null
}

# The compilers and runtimes of uploaded bots (docs/languages.md), from Debian's packages: each is checked at
# its fixed path (a toolchain elsewhere, e.g. ~/.cargo, is not what the sandbox runs).
install_bot_toolchains() {
    local missing=()
    [ -x /usr/bin/gcc ] || missing+=(gcc)
    [ -x /usr/bin/g++ ] || missing+=(g++)
    [ -x /usr/bin/rustc ] || missing+=(rustc)
    [ -x /usr/bin/go ] || missing+=(golang-go)
    [ -x /usr/bin/javac ] || missing+=(default-jdk-headless)
    [ -x /usr/bin/node ] || missing+=(nodejs)
    [ -f /usr/lib/python3/dist-packages/numpy/__init__.py ] || missing+=(python3-numpy)
    if [ "${#missing[@]}" -gt 0 ]; then
        apt_install "${missing[@]}" ||
            echo "==> could not install ${missing[*]}: bots in those languages will be refused at upload" >&2
    fi
}
