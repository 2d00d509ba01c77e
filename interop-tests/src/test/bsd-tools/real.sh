# Sourced by the stand-ins: runs the real tool NAME from /usr/bin or /bin with the remaining arguments.
real() {
  name="$1"
  shift
  for dir in /usr/bin /bin; do
    if [ -x "$dir/$name" ]; then exec "$dir/$name" "$@"; fi
  done
  echo "$name: not found in /usr/bin or /bin" >&2
  exit 127
}
