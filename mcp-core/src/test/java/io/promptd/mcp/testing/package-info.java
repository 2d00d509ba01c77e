/**
 * Test support shared through mcp-core's test-jar: {@link io.promptd.mcp.testing.SchemaHarness}
 * checks emitted messages against the official schema of their protocol version,
 * {@link io.promptd.mcp.testing.SampleCatalog} is a fixed catalog covering every content type,
 * {@link io.promptd.mcp.testing.TranscriptRunner} plays request lines into a session,
 * {@link io.promptd.mcp.testing.Transcripts} reads the golden transcripts from the class path, and
 * {@link io.promptd.mcp.testing.Recorder} and {@link io.promptd.mcp.testing.Wire} build and collect
 * messages.
 *
 * <p>A module that uses it adds two test dependencies, {@code io.promptd:promptd-mcp-core} with
 * {@code <type>test-jar</type>} and {@code com.networknt:json-schema-validator}; the parent POM's
 * surefire configuration already passes {@code mcp.spec.dir}. Its tests run on the class path
 * ({@code useModulePath=false}), since these classes read Jackson databind, which
 * {@code io.promptd.mcp} does not.
 */
@NullMarked
package io.promptd.mcp.testing;

import org.jspecify.annotations.NullMarked;
