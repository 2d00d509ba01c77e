package io.promptd.bench;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hot paths of one request: decode a line, dispatch it, render the prompt, encode the response;
 * and listing a page out of a large catalog. Run: {@code java -jar
 * benchmarks/target/benchmarks.jar} (see benchmarks/README.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CoreBenchmarks {
  @Param({"100000"})
  public int fillers;

  private McpServer server;
  private ServerSession session;
  private byte[] getLine;
  private Request getRequest;
  private Request listFirst;
  private Request listMiddle;
  private Response getResponse;

  @Setup(Level.Trial)
  public void setUp() {
    server =
        McpServer.builder().prompts(Fixtures.catalog(fillers)).pageSize(100).build();
    session = server.openSession(Outbound.discard());
    session.handle(
        request(
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"b\",\"version\":\"1\"}}}"),
        Outbound.discard());
    String code = "x".repeat(300);
    getLine =
        ("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"prompts/get\",\"params\":{\"name\":\"code_review\","
                + "\"arguments\":{\"code\":\"" + code + "\"}}}")
            .getBytes(StandardCharsets.UTF_8);
    getRequest = decode(getLine);
    getResponse = session.handle(getRequest, Outbound.discard());
    listFirst = request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\"}");
    String middle = MessageCodec.encode(session.handle(listFirst, Outbound.discard()));
    String cursor = middle.substring(middle.indexOf("\"nextCursor\":\"") + 14);
    cursor = cursor.substring(0, cursor.indexOf('"'));
    listMiddle = request(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\",\"params\":{\"cursor\":\""
            + cursor + "\"}}");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    server.close();
  }

  /** Bytes of one stdio line to a decoded request. */
  @Benchmark
  public Incoming decodeRequest() {
    return MessageCodec.decode(getLine, 0, getLine.length);
  }

  /** Dispatch and render prompts/get (decoded request in, response object out). */
  @Benchmark
  public Response dispatchGet() {
    return session.handle(getRequest, Outbound.discard());
  }

  /** A response object to the bytes of one stdio line. */
  @Benchmark
  public byte[] encodeResponse() {
    return MessageCodec.encodeLine(getResponse);
  }

  /** The whole request: bytes in, bytes out. */
  @Benchmark
  public byte[] roundTripGet() {
    Incoming in = MessageCodec.decode(getLine, 0, getLine.length);
    return MessageCodec.encodeLine(
        session.handle((Request) ((Incoming.Single) in).message(), Outbound.discard()));
  }

  /** The first page of prompts/list from the large catalog. */
  @Benchmark
  public byte[] listFirstPage() {
    return MessageCodec.encodeLine(session.handle(listFirst, Outbound.discard()));
  }

  /** A page from the middle of the large catalog (cursor decode + binary search). */
  @Benchmark
  public byte[] listWithCursor() {
    return MessageCodec.encodeLine(session.handle(listMiddle, Outbound.discard()));
  }

  private static Request request(String line) {
    return decode(line.getBytes(StandardCharsets.UTF_8));
  }

  private static Request decode(byte[] line) {
    return (Request) ((Incoming.Single) MessageCodec.decode(line, 0, line.length)).message();
  }
}
