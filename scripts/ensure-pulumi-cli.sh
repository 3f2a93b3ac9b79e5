#!/usr/bin/env bash
# ensure-pulumi-cli.sh: make the Pulumi CLI (`pulumi`) and the Node.js language host (`pulumi-language-nodejs`)
# available, without get.pulumi.com: use the ones on PATH, else build them from the Go module proxy into a
# cache outside the repository.
#
# Usage:
#   PATH="$(scripts/ensure-pulumi-cli.sh):$PATH"
#   PATH="$PWD/node_modules/@pulumi/pulumi:$PATH"     # see "Dynamic providers" below
#
# stdout: exactly one line, the absolute directory that holds `pulumi` and `pulumi-language-nodejs`.
# stderr: progress and warnings, prefixed with [pulumi-cli]. Exit status non-zero, with the reason, on failure.
#
# Version: the version of the installed @pulumi/pulumi (node_modules/@pulumi/pulumi/package.json), so the CLI
# matches the SDK. Override with PULUMI_CLI_VERSION=3.x.y.
#
# Environment knobs:
#   PULUMI_SDK_DIR           the installed @pulumi/pulumi whose version is wanted (default:
#                            node_modules/@pulumi/pulumi of this repository; the package's `pulumi-platform-cli`
#                            command sets it to the user's project's copy).
#   PULUMI_CLI_VERSION       CLI version to use/build (default: the installed SDK's version). When set explicitly,
#                            the script never falls back to another version.
#   PULUMI_CLI_CACHE         cache root (default: ${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-platform/pulumi-cli);
#                            binaries go to <root>/v<version>/bin.
#   PULUMI_CLI_EXACT=1       build the wanted version when the cache holds only other 3.x versions (by default the
#                            newest cached one is reused: a CLI runs Node.js SDKs older and newer than itself).
#   PULUMI_CLI_IGNORE_PATH=1 ignore a pulumi already on PATH and use/build the cached one.
#   PULUMI_CLI_REBUILD=1     rebuild even if the cache is complete (also re-tries a version previously refused).
#   PULUMI_CLI_FALLBACK=0    if the proxy refuses the wanted version, fail instead of building the newest older
#                            version it serves (see "Fallbacks").
#   PULUMI_CLI_FALLBACK_MAX  how many older versions to try before giving up (default 20).
#   PULUMI_CLI_REQUIRE_UPSTREAM_LANGUAGE_HOST=1  fail instead of building the stand-in language host.
#
# How the build works (first run: a few minutes; later runs: instant, from the cache):
#   The CLI's main package is github.com/pulumi/pulumi/pkg/v3/cmd/pulumi; the language host is the module
#   github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3. Their go.mod files contain `replace`
#   directives (local ../sdk, ../../../../pkg, plus e.g. atotto/clipboard => tgummerer/clipboard), so
#   `go install module@version` refuses them. Instead we generate a small wrapper module that requires
#   pkg/v3 and sdk/v3 at the same version (and the language host module at its tag, or at the pseudo-version
#   of the release commit), copies the upstream go.mod files' NON-local replaces, and `go build`s the main
#   packages with -trimpath, CGO_ENABLED=0 and the version stamped into sdk/v3/go/common/version.
#   Everything is built in a temporary directory inside the cache root and renamed into place only when
#   complete, so an interrupted build never leaves a half-filled cache; a lock serialises concurrent runs.
#
# Fallbacks (each one is announced with a WARNING on stderr, never silent):
#   * If the proxy refuses pkg/v3 at the wanted version (it answers 403/404 "not available"), and
#     PULUMI_CLI_VERSION was not set explicitly, the newest OLDER release that it does serve is built instead,
#     and <root>/v<wanted>.fallback records the choice so later runs reuse it offline. An older CLI runs a newer
#     Node.js SDK fine for what this project does; PULUMI_CLI_REBUILD=1 re-tries the wanted version.
#   * If the proxy refuses the language host module at both the tag and the release commit, the script builds
#     the project's own minimal stand-in, scripts/pulumi-cli/pulumi-language-nodejs/main.go (it runs the
#     installed SDK's @pulumi/pulumi/cmd/run with the same flags and environment as upstream's host; see that file
#     for what it omits). A cached build is redone automatically when that file changes.
#
# Dynamic providers: `pulumi.dynamic.Resource` runs through the provider plugin `pulumi-resource-pulumi-nodejs`,
# a small shell script shipped at the root of node_modules/@pulumi/pulumi. It resolves @pulumi/pulumi from the
# program's directory when it runs, so it is version-independent: this script copies it beside `pulumi` in the
# cache (as upstream's CLI distribution does), where the engine finds it without a warning. Callers may also put
# node_modules/@pulumi/pulumi on PATH as a fallback. Node.js itself must be on PATH (for this repo:
# node_modules/.bin, which holds Node 24).
#
# Needs: bash, Go >= 1.22 (pulumi v3.259 itself needs Go 1.25+; an older Go fetches that toolchain through
# GOTOOLCHAIN=auto, if the proxy serves it), network access to the Go module proxy (GOPROXY) for the first build
# only, coreutils, sed, awk. flock (util-linux) is used when present.

set -euo pipefail

# ---------------------------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------------------------

log() { printf '[pulumi-cli] %s\n' "$*" >&2; }
warn() { printf '[pulumi-cli] WARNING: %s\n' "$*" >&2; }
die() {
  printf '[pulumi-cli] ERROR: %s\n' "$*" >&2
  exit 1
}

# ver_lt A B: true if version A sorts strictly before version B.
ver_lt() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | sed -n 1p)" = "$1" ]; }

# json_field NAME: first string value of "NAME": "..." in the (pretty-printed) JSON on stdin. Good enough for
# `go mod download -json` / `go list -m -json`, which print one field per line; avoids depending on jq.
json_field() { sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\{0,1\}\$/\\1/p" | sed -n '1s/\\[nt]/ /g; 1s/\\"/"/g; 1p'; }

# classify_go_error MESSAGE: "refused" (the proxy answered, but won't serve that module/version), "network"
# (could not talk to the proxy at all) or "other".
classify_go_error() {
  case "$1" in
    *"dial tcp"* | *"no such host"* | *"i/o timeout"* | *"connection refused"* | *"network is unreachable"* | \
      *"TLS handshake"* | *"proxyconnect"* | *"connection reset"* | *"GOPROXY=off"* | *"Client.Timeout"*)
      echo network ;;
    *" 403 "* | *" 404 "* | *" 410 "* | *"not available"* | *"not permitted"* | *"not found"* | \
      *"unknown revision"* | *"invalid version"* | *"no matching versions"*)
      echo refused ;;
    *) echo other ;;
  esac
}

# is_complete DIR: DIR/bin holds both executables.
is_complete() { [ -x "$1/bin/pulumi" ] && [ -x "$1/bin/pulumi-language-nodejs" ]; }

# stand_in_stale DIR: DIR was built with the stand-in language host from a different version of its source.
stand_in_stale() {
  local recorded
  recorded="$(sed -n 's/^language_host=stand-in .*(sha256 \([0-9a-f]*\))$/\1/p' "$1/build-info.txt" 2>/dev/null)"
  [ -n "$recorded" ] && [ -f "$stand_in_src" ] && [ "$recorded" != "$(sha256sum "$stand_in_src" | cut -c1-16)" ]
}

# note_stand_in DIR: remind the caller when a cached build uses the stand-in language host.
note_stand_in() {
  if [ -f "$1/build-info.txt" ] && grep -q '^language_host=stand-in' "$1/build-info.txt"; then
    warn "pulumi-language-nodejs in $1/bin is the project's minimal stand-in" \
      "(scripts/pulumi-cli/pulumi-language-nodejs), not upstream's: the proxy did not serve upstream's module."
  fi
}

# ---------------------------------------------------------------------------------------------------------------
# Where we are, and which version we want
# ---------------------------------------------------------------------------------------------------------------

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
repo_root="$(cd "$script_dir/.." && pwd -P)"
# PULUMI_SDK_DIR: where @pulumi/pulumi is, when this runs from an installed package (bin/pulumi-platform-cli.js
# resolves it from the user's project; npm hoists it beside pulumi-platform, not inside it).
sdk_dir="${PULUMI_SDK_DIR:-$repo_root/node_modules/@pulumi/pulumi}"
stand_in_src="$script_dir/pulumi-cli/pulumi-language-nodejs/main.go"

explicit_version=false
if [ -n "${PULUMI_CLI_VERSION:-}" ]; then
  explicit_version=true
  want="${PULUMI_CLI_VERSION#v}"
elif [ -f "$sdk_dir/package.json" ]; then
  # The top-level "version" of package.json. sed rather than node: this must work before Node is on PATH.
  want="$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$sdk_dir/package.json" | sed -n 1p)"
  [ -n "$want" ] || want="$(sed -n 's/^[[:space:]]*"version": *"\([^"]*\)".*/\1/p' "$sdk_dir/package.json" | sed -n 1p)"
  [ -n "$want" ] || die "could not read \"version\" from $sdk_dir/package.json"
else
  die "@pulumi/pulumi is not installed ($sdk_dir/package.json is missing): install it ('npm ci' here, 'npm install' in your project)," \
    "or set PULUMI_CLI_VERSION=3.x.y"
fi
case "$want" in
  [0-9]*.[0-9]*.[0-9]*) ;;
  *) die "'$want' does not look like a Pulumi version (expected e.g. 3.270.0)" ;;
esac

# The dynamic provider plugin ships with the SDK (see the header). Make sure it can be executed; npm normally
# keeps the mode, but some tarball extractors and copies drop it.
dyn_plugin="$sdk_dir/pulumi-resource-pulumi-nodejs"
if [ -f "$dyn_plugin" ]; then
  if [ ! -x "$dyn_plugin" ]; then
    log "making $dyn_plugin executable"
    chmod +x "$dyn_plugin" || die "could not chmod +x $dyn_plugin"
  fi
else
  warn "$dyn_plugin not found (is @pulumi/pulumi installed? run 'npm ci'): dynamic resources will not work"
fi

# ---------------------------------------------------------------------------------------------------------------
# 1. Already on PATH?
# ---------------------------------------------------------------------------------------------------------------

if [ "${PULUMI_CLI_IGNORE_PATH:-0}" != 1 ] &&
  path_cli="$(command -v pulumi 2>/dev/null)" && path_host="$(command -v pulumi-language-nodejs 2>/dev/null)"; then
  path_cli="$(cd "$(dirname "$path_cli")" && pwd -P)/pulumi"
  with_timeout=()
  if command -v timeout >/dev/null 2>&1; then with_timeout=(timeout 60); fi
  if ! path_version="$(PULUMI_SKIP_UPDATE_CHECK=true "${with_timeout[@]}" "$path_cli" version 2>/dev/null)"; then
    die "found $path_cli on PATH but '$path_cli version' failed; fix it, or set PULUMI_CLI_IGNORE_PATH=1 to build one"
  fi
  path_version="${path_version#v}"
  log "using pulumi from PATH: $path_cli (v$path_version); language host: $path_host"
  if [ "$path_version" != "$want" ]; then
    warn "pulumi on PATH is v$path_version but the wanted version is v$want; continuing with it" \
      "(set PULUMI_CLI_IGNORE_PATH=1 to use/build v$want instead)"
  fi
  if [ "$(dirname "$path_host")" != "$(dirname "$(command -v pulumi)")" ]; then
    warn "pulumi-language-nodejs ($path_host) is not next to pulumi; both are on PATH, so this still works"
  fi
  note_stand_in "$(dirname "$(dirname "$path_cli")")"
  dirname "$path_cli"
  exit 0
fi

# ---------------------------------------------------------------------------------------------------------------
# 2. Already in the cache?
# ---------------------------------------------------------------------------------------------------------------

cache_root="${PULUMI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-platform/pulumi-cli}"
mkdir -p "$cache_root" || die "cannot create the cache directory $cache_root"
cache_root="$(cd "$cache_root" && pwd -P)"
case "$cache_root/" in
  "$repo_root"/*) warn "the cache $cache_root is inside the repository; set PULUMI_CLI_CACHE to a directory outside it" ;;
esac

# place_dynamic_plugin BIN: put the SDK's dynamic provider plugin script beside `pulumi`, where the engine looks
# first (found only on PATH, the engine warns on every command). The script resolves @pulumi/pulumi from the
# program's directory at run time, so one copy serves every project and SDK version; upstream's CLI
# distribution ships it beside `pulumi` the same way.
place_dynamic_plugin() {
  [ -f "$dyn_plugin" ] || return 0
  if ! cmp -s "$dyn_plugin" "$1/pulumi-resource-pulumi-nodejs"; then
    cp "$dyn_plugin" "$1/.pulumi-resource-pulumi-nodejs.$$" && chmod 755 "$1/.pulumi-resource-pulumi-nodejs.$$" &&
      mv -f "$1/.pulumi-resource-pulumi-nodejs.$$" "$1/pulumi-resource-pulumi-nodejs" ||
      warn "could not place pulumi-resource-pulumi-nodejs in $1; the engine will find it on PATH instead"
  fi
}

rebuild="${PULUMI_CLI_REBUILD:-0}"
reuse() { # reuse VERSION: print the cached bin dir of VERSION and exit, if complete and current
  if [ "$rebuild" != 1 ] && is_complete "$cache_root/v$1" && stand_in_stale "$cache_root/v$1"; then
    log "the stand-in language host's source changed since $cache_root/v$1 was built: rebuilding"
    rebuild=1
  fi
  if [ "$rebuild" != 1 ] && is_complete "$cache_root/v$1"; then
    log "reusing cached build: $cache_root/v$1/bin"
    note_stand_in "$cache_root/v$1"
    place_dynamic_plugin "$cache_root/v$1/bin"
    echo "$cache_root/v$1/bin"
    exit 0
  fi
}
reuse_fallback() { # reuse the version recorded when the proxy refused $want
  if [ "$explicit_version" = false ] && [ "${PULUMI_CLI_FALLBACK:-1}" != 0 ] && [ -f "$cache_root/v$want.fallback" ]; then
    local fb
    fb="$(sed -n 1p "$cache_root/v$want.fallback")"
    if [ -n "$fb" ] && [ "$rebuild" != 1 ] && is_complete "$cache_root/v$fb" && ! stand_in_stale "$cache_root/v$fb"; then
      warn "the Go module proxy did not serve pulumi v$want when this cache was built; using v$fb instead" \
        "(PULUMI_CLI_REBUILD=1 re-tries v$want)"
      reuse "$fb"
    fi
  fi
}
# reuse_compatible: when the wanted version is not built, the newest complete build of the same major version in
# the cache. A CLI runs Node.js SDKs older and newer than itself for what this project does (its suite runs the
# 3.259.0 CLI with the oldest and the newest SDK of the package's range), so a project whose SDK moved on does not
# wait minutes for a build of its own.
reuse_compatible() {
  if [ "$explicit_version" = true ] || [ "${PULUMI_CLI_EXACT:-0}" = 1 ] || [ "$rebuild" = 1 ]; then return 0; fi
  local dir v best=""
  for dir in "$cache_root"/v*/; do
    v="$(basename "$dir")"
    v="${v#v}"
    case "$v" in "${want%%.*}".*) ;; *) continue ;; esac
    if is_complete "$cache_root/v$v" && ! stand_in_stale "$cache_root/v$v" && { [ -z "$best" ] || ver_lt "$best" "$v"; }; then best="$v"; fi
  done
  [ -n "$best" ] || return 0
  warn "pulumi v$want is not built here; reusing v$best, built earlier (a CLI runs older and newer Node.js SDKs;" \
    "PULUMI_CLI_EXACT=1 builds v$want)"
  reuse "$best"
}
reuse "$want"
reuse_fallback
reuse_compatible

# ---------------------------------------------------------------------------------------------------------------
# 3. Build from the Go module proxy
# ---------------------------------------------------------------------------------------------------------------

go_bin="$(command -v go 2>/dev/null || true)"
if [ -z "$go_bin" ] && [ -x /usr/local/go/bin/go ]; then go_bin=/usr/local/go/bin/go; fi
[ -n "$go_bin" ] ||
  die "the Go toolchain is not installed (no 'go' on PATH or in /usr/local/go/bin): it is needed to build" \
    "pulumi v$want. Install Go >= 1.22 (https://go.dev/dl/), or put an existing pulumi and" \
    "pulumi-language-nodejs on PATH."
go_version="$("$go_bin" env GOVERSION 2>/dev/null)" || die "'$go_bin env GOVERSION' failed: is the Go installation broken?"
go_version="${go_version#go}"
go_version="${go_version%%[!0-9.]*}"
ver_lt "$go_version" "1.22" && die "Go $go_version at $go_bin is too old: Go >= 1.22 is needed (pulumi needs 1.25+)"
export GOWORK=off # never let a go.work somewhere above the cache take part
goproxy="$("$go_bin" env GOPROXY)"

# Serialise concurrent builds of the same version (two test runs starting at once). flock is optional.
lock_file="$cache_root/.lock-v$want"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$lock_file"
  if ! flock -n 9; then
    log "another build of v$want is running; waiting for it to finish"
    flock 9
  fi
  # The other run may have finished the job meanwhile.
  reuse "$want"
  reuse_fallback
  reuse_compatible
  # We hold the lock, so any leftover temporary build of this version is from a run that was killed (SIGKILL,
  # power loss) before its cleanup trap could run.
  rm -rf "$cache_root/.build-v$want".*
fi

stage="$(mktemp -d "$cache_root/.build-v$want.XXXXXX")" || die "cannot create a temporary directory in $cache_root"
chmod 755 "$stage" # mktemp makes it 0700; the published cache should be readable like any other
cleanup() { rm -rf "$stage"; }
trap cleanup EXIT
trap 'log "interrupted; removing $stage"; exit 130' INT TERM
started=$SECONDS

# mod_download MODULE@VERSION: `go mod download -json` it (this also fetches the source, which we need anyway).
# On success sets dl_json and returns 0. If the proxy refuses it, sets dl_err and returns 1.
# Any other failure (proxy unreachable, ...) is fatal.
mod_download() {
  local out err rc=0 kind
  err="$(mktemp "$stage/go-stderr.XXXXXX")"
  out="$(cd "$stage" && "$go_bin" mod download -json "$1" 2>"$err")" || rc=$?
  dl_err="$(printf '%s\n' "$out" | json_field Error)"
  [ -n "$dl_err" ] || dl_err="$(cat "$err")"
  rm -f "$err"
  if [ "$rc" -eq 0 ] && [ -n "$(printf '%s\n' "$out" | json_field Dir)" ]; then
    dl_json="$out"
    return 0
  fi
  kind="$(classify_go_error "$dl_err")"
  case "$kind" in
    refused) return 1 ;;
    network) die "cannot reach the Go module proxy (GOPROXY=$goproxy) to download $1: $dl_err" ;;
    *) die "downloading $1 from the Go module proxy (GOPROXY=$goproxy) failed: $dl_err" ;;
  esac
}

# go_mod_replaces GOMODFILE: the file's non-local replace directives, as OLD[@V]=NEW@V lines for
# `go mod edit -replace`. Local ones (=> ../sdk, => ../../../../pkg) point into the upstream repository and are
# replaced by requiring the same version from the proxy.
go_mod_replaces() {
  "$go_bin" mod edit -print "$1" | awk '
    function spec(s,   parts, lhs, rhs, nl, nr) {
      if (split(s, parts, / => /) != 2) return
      nl = split(parts[1], lhs, /[ \t]+/); nr = split(parts[2], rhs, /[ \t]+/)
      if (nr != 2) return                      # local path: skip
      printf "%s%s=%s@%s\n", lhs[1], (nl == 2 ? "@" lhs[2] : ""), rhs[1], rhs[2]
    }
    /^replace \($/ { blk = 1; next }
    blk && /^\)/   { blk = 0; next }
    blk            { sub(/^[ \t]+/, ""); spec($0); next }
    /^replace /    { sub(/^replace /, ""); spec($0) }'
}
go_mod_go_version() { "$go_bin" mod edit -print "$1" | awk '$1 == "go" { print $2; exit }'; }

pkg_mod=github.com/pulumi/pulumi/pkg/v3
sdk_mod=github.com/pulumi/pulumi/sdk/v3
host_mod=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3

log "building pulumi v$want from the Go module proxy ($goproxy) into $cache_root/v<version>"
log "a first build takes several minutes (about 5 on 2 cores: ~300 modules to download, then compiling; seconds" \
  "when Go's module and build caches are warm); later runs reuse the result instantly"

# -- 3a. Which version can we build? -----------------------------------------------------------------------------
# try_version V: fetch pkg/v3 and sdk/v3 at V. 0 = both served (sets pkg_json); 1 = the proxy refuses one of them.
try_version() {
  log "fetching $pkg_mod@v$1 and $sdk_mod@v$1"
  mod_download "$pkg_mod@v$1" || return 1
  pkg_json="$dl_json"
  mod_download "$sdk_mod@v$1" || return 1
}
chosen=""
if try_version "$want"; then
  chosen="$want"
else
  warn "the Go module proxy refuses to serve pulumi v$want: $dl_err"
  if [ "$explicit_version" = true ] || [ "${PULUMI_CLI_FALLBACK:-1}" = 0 ]; then
    die "cannot build pulumi v$want: the Go module proxy (GOPROXY=$goproxy) does not serve it" \
      "$([ "$explicit_version" = true ] && echo "(PULUMI_CLI_VERSION is set, so no fallback)" || echo "(PULUMI_CLI_FALLBACK=0)")." \
      "Put a pulumi CLI on PATH, or choose another version with PULUMI_CLI_VERSION=3.x.y."
  fi
  # Fall back to the newest older release that is served. Release tags of sdk/v3 and pkg/v3 are made together;
  # sdk/v3's list is used because a proxy that refuses some pkg/v3 versions may refuse pkg/v3's list too.
  versions="$(cd "$stage" && "$go_bin" list -m -versions "$sdk_mod" 2>&1)" ||
    die "cannot list the versions of $sdk_mod on the Go module proxy (GOPROXY=$goproxy): $versions"
  fallback_max="${PULUMI_CLI_FALLBACK_MAX:-20}"
  mapfile -t candidates < <(
    { printf '%s\n' "$versions" | tr ' ' '\n' | sed -n '2,$p' | sed 's/^v//' | grep -v -- '-'; echo "$want"; } |
      sort -uV | awk -v w="$want" '$0 == w { found = 1 } !found { print }' | sort -rV | sed -n "1,${fallback_max}p"
  )
  [ "${#candidates[@]}" -gt 0 ] || die "cannot build pulumi v$want, and $sdk_mod has no older release to fall back to"
  warn "falling back to the newest older release the proxy serves (trying up to ${#candidates[@]}: v${candidates[0]} ... v${candidates[${#candidates[@]}-1]})"
  for v in "${candidates[@]}"; do
    if try_version "$v"; then
      chosen="$v"
      break
    fi
    log "refused: v$v"
  done
  [ -n "$chosen" ] || die "cannot build pulumi v$want: the Go module proxy (GOPROXY=$goproxy) serves neither it" \
    "nor any of the ${#candidates[@]} releases before it (last answer: $dl_err). Put a pulumi CLI on PATH," \
    "or raise PULUMI_CLI_FALLBACK_MAX."
  warn "building pulumi v$chosen instead of v$want (the newest release below v$want that the proxy serves)"
  # An earlier run may have built it already (for another wanted version).
  if [ "$rebuild" != 1 ] && is_complete "$cache_root/v$chosen"; then
    printf '%s\n' "$chosen" >"$stage/fallback" && mv -f "$stage/fallback" "$cache_root/v$want.fallback"
    reuse "$chosen"
  fi
fi
pkg_gomod="$(printf '%s\n' "$pkg_json" | json_field GoMod)"
release_commit="$(printf '%s\n' "$pkg_json" | json_field Hash)"

# -- 3b. Which language host? ------------------------------------------------------------------------------------
host_version=""
log "fetching $host_mod@v$chosen"
if mod_download "$host_mod@v$chosen"; then
  host_version="v$chosen"
else
  warn "the Go module proxy refuses $host_mod@v$chosen: $dl_err"
  if [ -n "$release_commit" ]; then
    log "trying the release commit $release_commit of $host_mod (pseudo-version)"
    if mod_download "$host_mod@$release_commit"; then
      host_version="$(printf '%s\n' "$dl_json" | json_field Version)"
    else
      warn "the Go module proxy refuses $host_mod@$release_commit: $dl_err"
    fi
  fi
fi
if [ -n "$host_version" ]; then
  host_gomod="$(printf '%s\n' "$dl_json" | json_field GoMod)"
  host_pkg="$host_mod"
  log "language host: upstream $host_mod $host_version"
else
  [ "${PULUMI_CLI_REQUIRE_UPSTREAM_LANGUAGE_HOST:-0}" != 1 ] ||
    die "the Go module proxy does not serve the Node.js language host ($host_mod) and" \
      "PULUMI_CLI_REQUIRE_UPSTREAM_LANGUAGE_HOST=1 forbids the stand-in"
  [ -f "$stand_in_src" ] || die "the proxy does not serve $host_mod, and the stand-in source $stand_in_src is missing"
  host_gomod=""
  host_pkg="pulumi-platform.local/pulumi-cli/cmd/pulumi-language-nodejs"
  warn "building the project's minimal stand-in language host instead ($stand_in_src)"
fi

# -- 3c. The wrapper module ------------------------------------------------------------------------------------
mod_dir="$stage/module"
mkdir -p "$mod_dir" "$stage/bin"
go_directive="$(go_mod_go_version "$pkg_gomod")"
[ -z "$host_gomod" ] || go_directive="$(printf '%s\n%s\n' "$go_directive" "$(go_mod_go_version "$host_gomod")" | sort -V | tail -n1)"
{
  echo "// Generated by scripts/ensure-pulumi-cli.sh: builds pulumi v$chosen from the Go module proxy."
  echo "module pulumi-platform.local/pulumi-cli"
  echo
  echo "go ${go_directive:-1.22}"
  echo
  echo "require ("
  echo "	$pkg_mod v$chosen"
  echo "	$sdk_mod v$chosen"
  [ -z "$host_version" ] || echo "	$host_mod $host_version"
  echo ")"
} >"$mod_dir/go.mod"
# Copy upstream's non-local replaces (the CLI's first, then the language host's, which wins on a conflict).
upstream_gomods=("$pkg_mod@v$chosen=$pkg_gomod")
[ -z "$host_gomod" ] || upstream_gomods+=("$host_mod@$host_version=$host_gomod")
for entry in "${upstream_gomods[@]}"; do
  f="${entry#*=}"
  replaces="$(go_mod_replaces "$f")" || die "could not read the replace directives of ${entry%%=*} ($f)"
  while IFS= read -r r; do
    [ -n "$r" ] || continue
    log "replace ${r%%=*} => ${r#*=} (copied from ${entry%%=*}'s go.mod)"
    (cd "$mod_dir" && "$go_bin" mod edit "-replace=$r") || die "go mod edit -replace=$r failed"
  done <<<"$replaces"
done
# tools.go pins the main packages in the module graph so `go mod tidy` resolves everything they import.
cat >"$mod_dir/tools.go" <<EOF
//go:build tools

// Generated by scripts/ensure-pulumi-cli.sh.
package tools

import (
	_ "$pkg_mod/cmd/pulumi"
$([ -z "$host_version" ] || printf '\t_ "%s"\n' "$host_mod")
)
EOF
if [ -z "$host_version" ]; then
  mkdir -p "$mod_dir/cmd/pulumi-language-nodejs"
  cp "$stand_in_src" "$mod_dir/cmd/pulumi-language-nodejs/main.go"
fi

log "resolving dependencies (go mod tidy)"
(cd "$mod_dir" && "$go_bin" mod tidy) >&2 2>"$stage/tidy.log" || {
  cat "$stage/tidy.log" >&2
  case "$(classify_go_error "$(cat "$stage/tidy.log")")" in
    network) die "cannot reach the Go module proxy (GOPROXY=$goproxy) to download pulumi's dependencies (see above)" ;;
    refused) die "the Go module proxy refuses a dependency of pulumi v$chosen (see above)" ;;
    *) die "'go mod tidy' failed for the wrapper module in $mod_dir (see above)" ;;
  esac
}

# -- 3d. Build -----------------------------------------------------------------------------------------------
ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$chosen"
build() { # build PACKAGE OUTPUT
  log "compiling $1 (CGO_ENABLED=$cgo)"
  (cd "$mod_dir" && CGO_ENABLED=$cgo "$go_bin" build -trimpath -ldflags "$ldflags" -o "$2" "$1") >&2
}
cgo=0
if ! build "$pkg_mod/cmd/pulumi" "$stage/bin/pulumi"; then
  # Some releases might need cgo; retry once with the toolchain's default before giving up.
  cgo="$("$go_bin" env CGO_ENABLED)"
  [ "$cgo" != 0 ] || die "compiling pulumi v$chosen failed (see the Go errors above)"
  warn "compiling with CGO_ENABLED=0 failed; retrying with CGO_ENABLED=$cgo"
  build "$pkg_mod/cmd/pulumi" "$stage/bin/pulumi" || die "compiling pulumi v$chosen failed (see the Go errors above)"
fi
build "$host_pkg" "$stage/bin/pulumi-language-nodejs" ||
  die "compiling pulumi-language-nodejs ($host_pkg) failed (see the Go errors above)"

# -- 3e. Check, record, publish ----------------------------------------------------------------------------------
# (PULUMI_HOME: `pulumi version` writes a log file there; keep the caller's ~/.pulumi out of it.)
built_version="$(PULUMI_HOME="$stage/pulumi-home" PULUMI_SKIP_UPDATE_CHECK=true "$stage/bin/pulumi" version 2>&1)" ||
  die "the freshly built pulumi does not run: $built_version"
[ "$built_version" = "v$chosen" ] || die "the freshly built pulumi reports '$built_version', expected v$chosen"
{
  echo "# Written by scripts/ensure-pulumi-cli.sh"
  echo "pulumi_version=v$chosen"
  echo "wanted_version=v$want"
  echo "pkg_module=$pkg_mod@v$chosen"
  echo "sdk_module=$sdk_mod@v$chosen"
  echo "release_commit=${release_commit:-unknown}"
  if [ -n "$host_version" ]; then
    echo "language_host=upstream $host_mod@$host_version"
  else
    echo "language_host=stand-in scripts/pulumi-cli/pulumi-language-nodejs (sha256 $(sha256sum "$stand_in_src" | cut -c1-16))"
  fi
  echo "go=$("$go_bin" env GOVERSION) CGO_ENABLED=$cgo"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$stage/build-info.txt"
rm -rf "$stage/tidy.log" "$stage/pulumi-home"

final="$cache_root/v$chosen"
if [ -e "$final" ] && ! is_complete "$final"; then
  rm -rf "$final" # a broken layout from elsewhere: ours replaces it
fi
if [ -e "$final" ]; then
  log "replacing the existing $final"
  rm -rf "$final.old" && mv "$final" "$final.old" && rm -rf "$final.old"
fi
mv "$stage" "$final" || die "could not move the build into place ($stage -> $final)"
trap - EXIT
if [ "$chosen" != "$want" ]; then
  printf '%s\n' "$chosen" >"$cache_root/.v$want.fallback.tmp" && mv -f "$cache_root/.v$want.fallback.tmp" "$cache_root/v$want.fallback"
else
  rm -f "$cache_root/v$want.fallback"
fi
log "built pulumi v$chosen in $((SECONDS - started))s: $final/bin"
note_stand_in "$final"
place_dynamic_plugin "$final/bin"
echo "$final/bin"
