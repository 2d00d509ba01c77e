package io.promptd.mcp.http.internal.exchange;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.spi.Reply;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bytes of large answers in flight: taken before encoding, given back once written, bounded for
 * all requests.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AnswerBudgetTest {
  private static Reply read(int chars) {
    JsonObject contents = JsonObject.builder()
        .put("uri", "skill://big/data.bin")
        .put("blob", "A".repeat(chars))
        .build();
    return Reply.of(
        new ResultResponse(
            RequestId.of(1),
            JsonObject.builder()
                .put("contents", new JsonArray(List.of(contents)))
                .build()),
        Reply.Hint.ANSWERED,
        null);
  }

  @Test
  void largeAnswersTakeTheirSizeUntilWrittenAndOneBeyondTheBudgetDoesNotGetIn() throws Exception {
    AnswerBudget budget = new AnswerBudget(5L << 20);
    Runnable first = requireNonNull(budget.take(read(3 << 20), 0));
    assertThat(budget.availableKib()).isLessThan(2 << 10);
    assertThat(budget.take(read(3 << 20), 0)).as("no room left for a second").isNull();
    first.run();
    assertThat(budget.availableKib()).isEqualTo(5 << 10);
    requireNonNull(budget.take(read(3 << 20), 0)).run();
  }

  @Test
  void smallAnswersAndErrorsAreNotCountedAndAHugeOneTakesTheWholeBudget() throws Exception {
    AnswerBudget budget = new AnswerBudget(2L << 20);
    requireNonNull(budget.take(read(1000), 0)).run();
    Reply error = Reply.of(
        new ErrorResponse(RequestId.of(2), -32603, "x".repeat(3 << 20), null),
        Reply.Hint.ANSWERED,
        null);
    requireNonNull(budget.take(error, 0)).run();
    assertThat(budget.availableKib()).isEqualTo(2 << 10);
    Runnable huge = requireNonNull(budget.take(read(8 << 20), 0));
    assertThat(budget.availableKib()).isZero();
    huge.run();
    assertThat(budget.availableKib()).isEqualTo(2 << 10);
  }
}
