@echo off
rem promptd @VERSION@ for Windows, the platform-independent archive: runs the CLI on a Java 21 or newer (a JRE is
rem enough) from %PROMPTD_JAVA_HOME%, else %JAVA_HOME%, else the java on PATH. Logs go to stderr; stdout is the stdio
rem transport. PROMPTD_JAVA_OPTS adds JVM options; they are the ones bin/promptd passes. No start-up cache.
setlocal
for %%i in ("%~dp0..") do set "PROMPTD_HOME=%%~fi"
set "PROMPTD_JAVA=java.exe"
if defined JAVA_HOME set "PROMPTD_JAVA=%JAVA_HOME%\bin\java.exe"
if defined PROMPTD_JAVA_HOME set "PROMPTD_JAVA=%PROMPTD_JAVA_HOME%\bin\java.exe"
call :require21 || exit /b 3
rem lib\* holds exactly the jars lib\classpath lists (the test of the archive checks it); with no cache, order is free.
rem The heap's maximum: a quarter of the memory, at most 2 GiB; PROMPTD_MAX_HEAP (e.g. 512m, 4g) sets it.
set "PROMPTD_HEAP=-XX:MaxRAMPercentage=25 -XX:MaxRAM=8g"
if defined PROMPTD_MAX_HEAP set "PROMPTD_HEAP=-Xmx%PROMPTD_MAX_HEAP%"
rem Serial for one client, G1 for the HTTP server (./promptd explains why).
set "PROMPTD_GC=-XX:+UseSerialGC"
for %%a in (%*) do if "%%~a"=="--http" set "PROMPTD_GC=-XX:+UseG1GC"
"%PROMPTD_JAVA%" %PROMPTD_GC% -XX:-UsePerfData -Xms32m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=40 ^
  -Xlog:disable -Xlog:all=warning:stderr -Djava.locale.providers=HOST "-Dpromptd.launcher=%PROMPTD_HOME%\bin\promptd.cmd" ^
  %PROMPTD_HEAP% %PROMPTD_JAVA_OPTS% -cp "%PROMPTD_HOME%\lib\*" io.promptd.cli.Main %*
exit /b %ERRORLEVEL%

rem :require21 - fails with a message unless %PROMPTD_JAVA% runs and says it is Java 21 or newer. `java -version`
rem writes e.g. 'openjdk version "25.0.1" 2025-10-21' (or 'java version "1.8.0_412"') to stderr; a file rather than a
rem pipe inside `for /f`, whose quoting breaks on paths like "C:\Program Files (x86)\...".
:require21
set "PROMPTD_VERSION_FILE=%TEMP%\promptd-java-version-%RANDOM%.txt"
"%PROMPTD_JAVA%" -version 2>"%PROMPTD_VERSION_FILE%" >nul
if errorlevel 1 (
  del "%PROMPTD_VERSION_FILE%" 2>nul
  echo promptd: needs Java 21 or newer; "%PROMPTD_JAVA%" did not run. Set PROMPTD_JAVA_HOME or JAVA_HOME. 1>&2
  exit /b 1
)
set "PROMPTD_JV="
for /f "usebackq tokens=3" %%v in (`findstr /c:" version " "%PROMPTD_VERSION_FILE%"`) do (
  if not defined PROMPTD_JV set "PROMPTD_JV=%%~v"
)
del "%PROMPTD_VERSION_FILE%" 2>nul
set "PROMPTD_JM=0"
if defined PROMPTD_JV for /f "delims=.-+_" %%m in ("%PROMPTD_JV%") do set "PROMPTD_JM=%%m"
if %PROMPTD_JM% GEQ 21 exit /b 0
echo promptd: needs Java 21 or newer; "%PROMPTD_JAVA%" is Java %PROMPTD_JV%. Set PROMPTD_JAVA_HOME or JAVA_HOME. 1>&2
exit /b 1
