# Finds a JDK 21 or newer. Sourced by ./promptd, bin/test, .ci/run and benchmarks/referee.sh.
# Order: $PROMPTD_JAVA_HOME, $JAVA_HOME, the java on PATH, then the usual install folders (highest version).
# Reads each JDK's `release` file with shell built-ins rather than starting a JVM or a subprocess: the launcher runs
# this on every start, and every fork shows in the cold-start time.

# promptd_jdk_major HOME: when HOME is a JDK (java, javac and a release file), sets PROMPTD_JDK_VERSION (e.g. 25.0.3)
# and PROMPTD_JDK_MAJOR (25); fails otherwise.
promptd_jdk_major() {
  local home="$1" line version=""
  PROMPTD_JDK_VERSION="" PROMPTD_JDK_MAJOR=""
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] && [ -f "$home/release" ] || return 1
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in
      JAVA_VERSION=*) version="${line#JAVA_VERSION=}"; version="${version//\"/}" ;;
    esac
  done <"$home/release"
  PROMPTD_JDK_VERSION="$version"
  version="${version#1.}"
  PROMPTD_JDK_MAJOR="${version%%[.+-]*}"
  [[ "$PROMPTD_JDK_MAJOR" =~ ^[0-9]+$ ]]
}

# promptd_find_jdk: sets PROMPTD_JDK to the first JDK >= 21 in the order above, with PROMPTD_JDK_VERSION/_MAJOR.
promptd_find_jdk() {
  local home java best="" best_major=0
  PROMPTD_JDK=""
  for home in "${PROMPTD_JAVA_HOME:-}" "${JAVA_HOME:-}"; do
    if [ -n "$home" ] && promptd_jdk_major "$home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then
      PROMPTD_JDK="$home"
      return 0
    fi
  done
  if java="$(command -v java 2>/dev/null)" && [ -n "$java" ]; then
    java="$(readlink -f "$java")"
    home="${java%/bin/java}"
    if promptd_jdk_major "$home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ]; then
      PROMPTD_JDK="$home"
      return 0
    fi
  fi
  shopt -s nullglob
  for home in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* "${HOME:-/nonexistent}"/.sdkman/candidates/java/* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if promptd_jdk_major "$home" && [ "$PROMPTD_JDK_MAJOR" -ge 21 ] \
        && [ "$PROMPTD_JDK_MAJOR" -gt "$best_major" ]; then
      best="$home" best_major="$PROMPTD_JDK_MAJOR"
    fi
  done
  shopt -u nullglob
  [ -n "$best" ] || return 1
  PROMPTD_JDK="$best"
  promptd_jdk_major "$best"
}

# promptd_require_jdk: promptd_find_jdk, or a plain message on stderr and status 3.
promptd_require_jdk() {
  if ! promptd_find_jdk; then
    echo "promptd: needs a JDK 21 or newer (with javac). None found in \$PROMPTD_JAVA_HOME, \$JAVA_HOME, PATH or /usr/lib/jvm." >&2
    echo "promptd: install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+) or point JAVA_HOME at it." >&2
    return 3
  fi
}
