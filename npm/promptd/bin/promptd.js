#!/usr/bin/env node
// promptd from npm: runs the CLI on the runtime of the platform package (@promptd/runtime-OS-CPU, an optional
// dependency npm installs only on its own platform), with the start-up cache trained with that runtime; without it,
// on a Java 21 or newer from $PROMPTD_JAVA_HOME, $JAVA_HOME or PATH (no cache: one is tied to the JVM that made it).
// The same JVM options as the release archive's bin/promptd (written by bin/release; ./promptd explains each).
// stdout is the MCP stdio transport: this process never writes to it and never reads stdin. The JVM gets the three
// standard streams themselves (stdio inherited, nothing copied), signals are passed on, and its exit status is ours.
// PROMPTD_JAVA_OPTS adds JVM options, PROMPTD_MAX_HEAP sets the heap's maximum, PROMPTD_NO_CACHE=1 starts without the
// cache. Node 18+, CommonJS, built-in modules only: every millisecond here is added to each start.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

// npm pack writes this modification time (1985-10-26T08:15:00Z) for every file, and bin/release-npm gives it to the
// jars before it trains the cache. The JVM uses a cache only while each jar's size and time are those it was trained
// with; npm install writes the install time instead, so the first start sets the time back (below).
const PACKED_TIME = 499162500;
const PLATFORMS = ['linux-x64', 'linux-arm64', 'darwin-arm64', 'darwin-x64', 'win32-x64'];
const WIN = process.platform === 'win32';
const HOME = path.resolve(__dirname, '..');
const LIB = path.join(HOME, 'lib');
const PLATFORM = process.platform + '-' + process.arch;
const RUNTIME_PACKAGE = '@promptd/runtime-' + PLATFORM;

function fail(status, message) {
  process.stderr.write('promptd: ' + message + '\n');
  process.exit(status);
}

// The platform package's folder, or null when it is not installed (--omit=optional, another platform, musl libc).
function runtimePackage() {
  if (!PLATFORMS.includes(PLATFORM)) return null;
  try {
    return path.dirname(require.resolve(RUNTIME_PACKAGE + '/package.json', { paths: [HOME] }));
  } catch (e) {
    return null;
  }
}

// The environment with file names read as UTF-8 whatever the locale (bin/jdk.sh's promptd_utf8_names explains why):
// with no locale set, or C/POSIX, the JVM cannot read a name in any script but Latin ASCII.
function utf8Names(env) {
  if (WIN || /utf-?8/i.test(env.LC_ALL || env.LC_CTYPE || env.LANG || '')) {
    return env;
  }
  const out = { ...env };
  if (out.LC_ALL) {
    out.LANG = out.LC_ALL;
    delete out.LC_ALL;
  }
  out.LC_CTYPE = 'C.UTF-8';
  return out;
}

// JAVA_VERSION's major from HOME/release (as bin/jdk.sh reads it), or 0 when there is no readable release file.
function majorAt(home) {
  let text;
  try {
    text = fs.readFileSync(path.join(home, 'release'), 'utf8');
  } catch (e) {
    return 0;
  }
  const m = /^JAVA_VERSION="?(?:1\.)?(\d+)/m.exec(text);
  return m ? Number(m[1]) : 0;
}

function javaIn(home) {
  return path.join(home, 'bin', WIN ? 'java.exe' : 'java');
}

// The first Java 21+ of $PROMPTD_JAVA_HOME, $JAVA_HOME and the java on PATH (links followed), as
// {java, found: what was seen}; java is null when none is 21+.
function findJava() {
  const seen = [];
  const homes = [];
  for (const name of ['PROMPTD_JAVA_HOME', 'JAVA_HOME']) {
    if (process.env[name]) homes.push([process.env[name], '$' + name]);
  }
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const onPath = dir && path.join(dir, WIN ? 'java.exe' : 'java');
    if (!onPath || !fs.existsSync(onPath)) continue;
    let real = onPath;
    try {
      real = fs.realpathSync(onPath); // e.g. /usr/bin/java -> /usr/lib/jvm/NAME/bin/java
    } catch (e) {
      // as it is
    }
    homes.push([path.dirname(path.dirname(real)), 'PATH']);
    break;
  }
  for (const [home, where] of homes) {
    const java = javaIn(home);
    if (!fs.existsSync(java)) {
      seen.push('no java in ' + where + ' (' + home + ')');
      continue;
    }
    let major = majorAt(home);
    if (major === 0) major = versionOf(java);
    if (major >= 21) return { java, seen };
    seen.push((major ? 'Java ' + major : 'a Java of unknown version') + ' in ' + where + ' (' + home + ')');
  }
  return { java: null, seen };
}

// The major version `java -version` reports, for an installation without a release file; 0 if it does not say.
function versionOf(java) {
  const r = require('child_process').spawnSync(java, ['-version'], { encoding: 'utf8', timeout: 20000 });
  const m = /version "(?:1\.)?(\d+)/.exec((r.stderr || '') + (r.stdout || ''));
  return m ? Number(m[1]) : 0;
}

// True when every jar has the time the cache was trained with, after setting it where npm install wrote another
// (false when a jar's time cannot be set, e.g. a global install owned by another user: then no cache, no warning).
function jarsAsTrained(jars) {
  for (const jar of jars) {
    try {
      if (Math.floor(fs.statSync(jar).mtimeMs / 1000) !== PACKED_TIME) fs.utimesSync(jar, PACKED_TIME, PACKED_TIME);
    } catch (e) {
      return false;
    }
  }
  return true;
}

function main() {
  const args = process.argv.slice(2);
  let heap = ['-XX:MaxRAMPercentage=25', '-XX:MaxRAM=8g'];
  const maxHeap = process.env.PROMPTD_MAX_HEAP;
  if (maxHeap) {
    if (!/^[0-9]+[kKmMgG]?$/.test(maxHeap)) {
      fail(2, "PROMPTD_MAX_HEAP='" + maxHeap + "' is not a heap size: give bytes or a number with k, m or g (e.g. 512m, 4g)");
    }
    heap = ['-Xmx' + maxHeap];
  }
  const jars = fs
    .readFileSync(path.join(LIB, 'classpath'), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l !== '')
    .map((jar) => path.join(LIB, jar));

  // Serial for one client, G1 for the HTTP server (the checkout's ./promptd explains why); each cache was trained
  // with its collector.
  const mode = args.includes('--http') ? 'http' : 'stdio';
  let java;
  let cache = [];
  const runtime = runtimePackage();
  if (runtime) {
    java = javaIn(path.join(runtime, 'runtime'));
    if (!process.env.PROMPTD_NO_CACHE) {
      const aot = path.join(runtime, 'lib', 'promptd-' + mode + '.aot');
      const jsa = path.join(runtime, 'lib', 'promptd-' + mode + '.jsa');
      if (fs.existsSync(aot)) {
        if (jarsAsTrained(jars)) cache = ['-XX:AOTCache=' + aot];
      } else if (fs.existsSync(jsa)) {
        if (jarsAsTrained(jars)) cache = ['-XX:SharedArchiveFile=' + jsa];
      }
    }
  } else {
    const found = findJava();
    if (!found.java) {
      const why = PLATFORMS.includes(PLATFORM)
        ? 'its runtime package ' + RUNTIME_PACKAGE + ' is not installed'
        : 'npm has no runtime package for ' + PLATFORM;
      fail(
        3,
        why + ' and no Java 21+ was found (' + (found.seen.join(', ') || 'no $JAVA_HOME, no java on PATH') + '): ' +
          'install promptd without --omit=optional on ' + PLATFORMS.join(', ') + ', or install Java 21+ and set JAVA_HOME'
      );
    }
    java = found.java;
  }

  const extra = (process.env.PROMPTD_JAVA_OPTS || '').split(/\s+/).filter((o) => o !== '');
  const jvm = [
    mode === 'http' ? '-XX:+UseG1GC' : '-XX:+UseSerialGC', '-XX:-UsePerfData', '-Xms32m', '-XX:MinHeapFreeRatio=10', '-XX:MaxHeapFreeRatio=40',
    '-Xlog:disable', '-Xlog:all=warning:stderr', '-Djava.locale.providers=HOST', ...cache, ...heap,
    '-Dpromptd.launcher=' + __filename, ...extra, '-cp', jars.join(path.delimiter), 'io.promptd.cli.Main', ...args,
  ];
  const child = spawn(java, jvm, { stdio: 'inherit', windowsHide: true, env: utf8Names(process.env) });
  // Passed on, so that a signal sent to this process alone ends the JVM the way it would end it (shutdown hooks
  // run). On Windows, Ctrl+C reaches the JVM itself (one console) and kill() could only terminate it: this process
  // just waits for it.
  const forward = {};
  for (const signal of WIN ? ['SIGINT'] : ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    forward[signal] = () => {
      if (WIN) return;
      try {
        child.kill(signal);
      } catch (e) {
        // gone already
      }
    };
    process.on(signal, forward[signal]);
  }
  child.on('error', (e) => fail(e.code === 'ENOENT' ? 127 : 126, 'cannot run ' + java + ': ' + e.message));
  child.on('exit', (code, signal) => {
    for (const s of Object.keys(forward)) process.removeListener(s, forward[s]);
    if (signal) {
      process.kill(process.pid, signal); // ended the same way as the JVM
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

main();
