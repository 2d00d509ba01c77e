# Finds a JDK 21 or newer and prints its home. Sourced by ./promptd, bin/test and .ci/run.
# Order: $PROMPTD_JAVA_HOME, $JAVA_HOME, the java on PATH, then the usual install folders (newest first).
# Reads each JDK's `release` file rather than starting a JVM, so the check costs no time at launch.

promptd_jdk_major() {
  local home="$1" version
  [ -x "$home/bin/java" ] && [ -x "$home/bin/javac" ] && [ -f "$home/release" ] || return 1
  version="$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$home/release")"
  version="${version#1.}"
  echo "${version%%[.+-]*}"
}

promptd_find_jdk() {
  local candidates=() home major
  [ -n "${PROMPTD_JAVA_HOME:-}" ] && candidates+=("$PROMPTD_JAVA_HOME")
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for home in $(ls -d /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* "$HOME"/.sdkman/candidates/java/* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home 2>/dev/null | sort -rV); do
    candidates+=("$home")
  done
  for home in "${candidates[@]}"; do
    major="$(promptd_jdk_major "$home" 2>/dev/null)" || continue
    if [ -n "$major" ] && [ "$major" -ge 21 ] 2>/dev/null; then
      echo "$home"
      return 0
    fi
  done
  return 1
}

promptd_require_jdk() {
  local home
  if ! home="$(promptd_find_jdk)"; then
    echo "promptd: needs a JDK 21 or newer (with javac). None found in \$PROMPTD_JAVA_HOME, \$JAVA_HOME, PATH or /usr/lib/jvm." >&2
    echo "promptd: install one (e.g. 'apt-get install openjdk-21-jdk' or Temurin 21+) or point JAVA_HOME at it." >&2
    return 3
  fi
  echo "$home"
}
