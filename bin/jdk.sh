# Finds a Java 21 or newer; POSIX sh (dash, bash, macOS /bin/sh). Sourced by ./promptd, bin/*, .ci/run,
# benchmarks/*.sh, and (as lib/jdk.sh) by the platform-independent archive's bin/promptd.
# Reads each installation's `release` file with shell built-ins rather than starting a JVM or a subprocess: the
# launcher runs this on every start, and every fork shows in the cold-start time. No `local` (not POSIX): each
# function's variables carry its own prefix, since they share the caller's namespace.
# shellcheck shell=sh disable=SC2034 # PROMPTD_JDK* are for the scripts that source this

# promptd_java_at HOME: when HOME holds bin/java and a release file naming its version, sets PROMPTD_JDK_VERSION (e.g.
# 25.0.3) and PROMPTD_JDK_MAJOR (25); fails otherwise. A JRE is enough.
promptd_java_at() {
  PROMPTD_JDK_VERSION="" PROMPTD_JDK_MAJOR=""
  [ -x "$1/bin/java" ] && [ -f "$1/release" ] || return 1
  while IFS= read -r _pja_line || [ -n "$_pja_line" ]; do
    case "$_pja_line" in
      JAVA_VERSION=*) _pja_v="${_pja_line#JAVA_VERSION=}"; _pja_v="${_pja_v#\"}"; PROMPTD_JDK_VERSION="${_pja_v%\"}" ;;
    esac
  done <"$1/release"
  _pja_v="${PROMPTD_JDK_VERSION#1.}"
  PROMPTD_JDK_MAJOR="${_pja_v%%[.+-]*}"
  case "$PROMPTD_JDK_MAJOR" in '' | *[!0-9]*) PROMPTD_JDK_MAJOR=""; return 1 ;; esac
}

# promptd_jdk_major HOME: promptd_java_at, and HOME must be a JDK (bin/javac): the checkout builds itself.
promptd_jdk_major() {
  [ -x "$1/bin/javac" ] && promptd_java_at "$1"
}

# promptd_resolve PATH: sets PROMPTD_RESOLVED to PATH with every symbolic link followed (plain `readlink` in a loop:
# `readlink -f` is missing on older macOS).
promptd_resolve() {
  PROMPTD_RESOLVED="$1"
  while [ -L "$PROMPTD_RESOLVED" ]; do
    _prs_to="$(readlink "$PROMPTD_RESOLVED")" || return 1
    case "$_prs_to" in
      /*) PROMPTD_RESOLVED="$_prs_to" ;;
      *) PROMPTD_RESOLVED="${PROMPTD_RESOLVED%/*}/$_prs_to" ;;
    esac
  done
}

# promptd_path_java_home: sets _pph_home to the installation of the `java` on PATH (links followed), else fails.
promptd_path_java_home() {
  _pph_home=""
  _pph_java="$(command -v java 2>/dev/null)" && [ -n "$_pph_java" ] || return 1
  promptd_resolve "$_pph_java" || return 1
  _pph_home="${PROMPTD_RESOLVED%/bin/java}"
}

# promptd_find_jdk: sets PROMPTD_JDK to the first JDK >= 21, with PROMPTD_JDK_VERSION/_MAJOR. Order:
# $PROMPTD_JAVA_HOME, $JAVA_HOME, the java on PATH, then the usual install folders (highest version).
promptd_find_jdk() {
  PROMPTD_JDK=""
  for _pfj_home in "${PROMPTD_JAVA_HOME:-}" "${JAVA_HOME:-}"; do
    if [ -n "$_pfj_home" ] && promptd_jdk_major "$_pfj_home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then
      PROMPTD_JDK="$_pfj_home"
      return 0
    fi
  done
  if promptd_path_java_home && promptd_jdk_major "$_pph_home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then
    PROMPTD_JDK="$_pph_home"
    return 0
  fi
  _pfj_best="" _pfj_major=0
  # A pattern that matches nothing stays as it is, and is then no JDK.
  for _pfj_home in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* "${HOME:-/nonexistent}"/.sdkman/candidates/java/* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if promptd_jdk_major "$_pfj_home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ] && [ "$PROMPTD_JDK_MAJOR" -gt "$_pfj_major" ]; then
      _pfj_best="$_pfj_home" _pfj_major="$PROMPTD_JDK_MAJOR"
    fi
  done
  [ -n "$_pfj_best" ] || return 1
  PROMPTD_JDK="$_pfj_best"
  promptd_jdk_major "$_pfj_best"
}

# promptd_utf8_names: makes the JVM read and write file names as UTF-8. It takes their character set from the
# locale (LC_ALL, else LC_CTYPE, else LANG); with none set, or C/POSIX — a client that starts promptd with an empty
# environment, a service manager — a name in any script but Latin ASCII (翻訳.prompt.md) is unreadable to it. Then
# LC_CTYPE becomes C.UTF-8; a non-UTF-8 LC_ALL moves to LANG, so the language of messages stays as it was.
promptd_utf8_names() {
  case "${LC_ALL:-${LC_CTYPE:-${LANG:-}}}" in
    *[Uu][Tt][Ff]-8* | *[Uu][Tt][Ff]8*) return 0 ;;
  esac
  if [ -n "${LC_ALL:-}" ]; then
    LANG="$LC_ALL"
    export LANG
    unset LC_ALL
  fi
  LC_CTYPE=C.UTF-8
  export LC_CTYPE
}

# promptd_require_jdk: promptd_find_jdk, or a plain message on stderr and status 3.
promptd_require_jdk() {
  if ! promptd_find_jdk; then
    echo "promptd: needs a JDK 21 or newer (with javac). None found in \$PROMPTD_JAVA_HOME, \$JAVA_HOME, PATH or /usr/lib/jvm." >&2
    echo "promptd: install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+) or point JAVA_HOME at it." >&2
    return 3
  fi
}

# promptd_require_java: sets PROMPTD_JDK to the first Java (a JRE will do) >= 21 in $PROMPTD_JAVA_HOME, $JAVA_HOME,
# the java on PATH (on macOS also /usr/libexec/java_home's choice), with PROMPTD_JDK_VERSION/_MAJOR; no scan of
# install folders: the user's choice is the one used. Otherwise says what it found on stderr and returns 3.
promptd_require_java() {
  PROMPTD_JDK="" _prj_seen=""
  promptd_path_java_home || true
  for _prj_home in "${PROMPTD_JAVA_HOME:-}" "${JAVA_HOME:-}" "$_pph_home"; do
    case "$_prj_home;$_prj_seen" in ";"* | *" at $_prj_home;"*) continue ;; esac # unset, or said already
    if promptd_java_at "$_prj_home"; then
      if [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then PROMPTD_JDK="$_prj_home"; return 0; fi
      _prj_seen="$_prj_seen Java $PROMPTD_JDK_VERSION at $_prj_home;"
    else
      _prj_seen="$_prj_seen no Java with a release file at $_prj_home;"
    fi
  done
  if [ -x /usr/libexec/java_home ] && _prj_home="$(/usr/libexec/java_home -v 21+ 2>/dev/null)" \
      && promptd_java_at "$_prj_home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then
    PROMPTD_JDK="$_prj_home"
    return 0
  fi
  _prj_seen="${_prj_seen%;}"
  echo "promptd: needs Java 21 or newer; found:${_prj_seen:- no java in \$PROMPTD_JAVA_HOME, \$JAVA_HOME or PATH}." >&2
  echo "promptd: install Java 21+ (a JRE is enough) and point PROMPTD_JAVA_HOME or JAVA_HOME at it." >&2
  return 3
}
