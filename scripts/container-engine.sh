#!/usr/bin/env bash
# A Docker-compatible container engine for compose and Testcontainers (source this file).
# Where a Docker engine answers, nothing changes. Otherwise Debian's podman serves the Docker API on a socket:
# podman and docker-compose are installed from Debian when missing, a containers.conf with rlimits this sandbox
# accepts is written, `podman system service` is started, and DOCKER_HOST, CONTAINERS_CONF,
# TESTCONTAINERS_RYUK_DISABLED (Ryuk's image cannot be pulled without a registry) and CONTAINER_ENGINE are exported.
# Exits (or returns) non-zero with a message naming what is missing; it never waits forever.

_ce_fail() {
  echo "container engine: $*" >&2
  return 1
}

_ce_docker_answers() {
  command -v docker >/dev/null 2>&1 && timeout 10 docker info >/dev/null 2>&1
}

_ce_start_podman() {
  local missing=() runtime=crun
  command -v podman >/dev/null 2>&1 || missing+=(podman)
  command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
  # crun refuses hybrid cgroups (v1 controllers beside a v2 mount, as on this kind of VM); runc runs them.
  if [ "$(stat -fc %T /sys/fs/cgroup/ 2>/dev/null)" != cgroup2fs ]; then
    runtime=runc
    command -v runc >/dev/null 2>&1 || missing+=(runc)
  fi
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      _ce_fail "no Docker engine answers and ${missing[*]} is missing: install Docker, or Debian's podman and docker-compose (apt-get install podman docker-compose)"
      return 1
    fi
    echo "container engine: installing ${missing[*]} from Debian" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2 ||
      { _ce_fail "apt-get could not install ${missing[*]}"; return 1; }
  fi

  # A short path of the machine's (a socket path is limited to 107 bytes), shared by every clone of the repository.
  local state="${PODMAN_STATE_DIR:-/tmp/scheduling-shop-podman-$(id -u)}"
  mkdir -p "$state"
  # The sandbox refuses podman's default rlimits ("error setting rlimit type 7"): ask for ones it grants.
  cat >"$state/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
[engine]
runtime = "$runtime"
EOF
  export CONTAINERS_CONF="$state/containers.conf"
  local socket="$state/podman.sock"
  export DOCKER_HOST="unix://$socket"
  local service="podman system service --time=0 unix://$socket"
  # A service started with another configuration is replaced, so the file just written is the one in force.
  if ! cmp -s "$state/containers.conf" "$state/service.conf" 2>/dev/null; then
    pkill -f "$service" 2>/dev/null && sleep 1
    cp "$state/containers.conf" "$state/service.conf"
  fi
  # So is one whose working directory was deleted (an older one started from a clone since removed): conmon inherits
  # that directory and then fails to start any container ("write child: broken pipe").
  local pid
  for pid in $(pgrep -f "$service" 2>/dev/null); do
    case "$(readlink "/proc/$pid/cwd" 2>/dev/null)" in
    *" (deleted)") kill "$pid" 2>/dev/null && sleep 1 ;;
    esac
  done
  if ! timeout 5 curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1; then
    rm -f "$socket"
    # setsid: the service outlives this shell, so one socket serves every later command of the machine; it runs
    # from the state directory, which outlives any clone.
    (cd "$state" && exec setsid podman system service --time=0 "unix://$socket") >"$state/service.log" 2>&1 </dev/null &
    local i
    for i in $(seq 1 50); do
      timeout 2 curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 && break
      sleep 0.2
    done
    timeout 5 curl -sf --unix-socket "$socket" http://d/_ping >/dev/null 2>&1 ||
      { _ce_fail "podman system service did not answer on $socket (see $state/service.log)"; return 1; }
  fi
  export CONTAINER_ENGINE=podman
  export TESTCONTAINERS_RYUK_DISABLED=true
  # Published ports are reached on the loopback address, as with Docker.
  export TESTCONTAINERS_HOST_OVERRIDE="${TESTCONTAINERS_HOST_OVERRIDE:-127.0.0.1}"
}

if _ce_docker_answers; then
  export CONTAINER_ENGINE="${CONTAINER_ENGINE:-docker}"
else
  _ce_start_podman || { unset -f _ce_fail _ce_docker_answers _ce_start_podman; return 1 2>/dev/null || exit 1; }
fi
echo "container engine: $CONTAINER_ENGINE${DOCKER_HOST:+ at $DOCKER_HOST}" >&2
unset -f _ce_fail _ce_docker_answers _ce_start_podman
