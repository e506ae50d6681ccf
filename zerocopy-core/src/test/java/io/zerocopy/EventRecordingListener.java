package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * A listener that writes down every call, plus an optional action on progress (to truncate a file
 * or interrupt the thread between steps), and checks the listener contract.
 */
final class EventRecordingListener implements TransferListener {

    /** What to do after a progress call; may throw an unchecked exception only. */
    @FunctionalInterface
    interface ProgressAction {
        void onProgress(long bytesSoFar) throws Exception;
    }

    final List<String> startStrategies = new ArrayList<>();
    final List<Long> startExpected = new ArrayList<>();
    final List<Long> progress = new ArrayList<>();
    final List<TransferResult> completions = new ArrayList<>();
    final List<TransferException> failures = new ArrayList<>();
    private final ProgressAction action;

    EventRecordingListener() {
        this(bytes -> {
        });
    }

    EventRecordingListener(ProgressAction action) {
        this.action = action;
    }

    @Override
    public void onStart(String strategy, long expectedBytes) {
        startStrategies.add(strategy);
        startExpected.add(expectedBytes);
    }

    @Override
    public void onProgress(long bytesSoFar) {
        progress.add(bytesSoFar);
        try {
            action.onProgress(bytesSoFar);
        } catch (Exception e) {
            throw new AssertionError("progress action failed", e);
        }
    }

    @Override
    public void onComplete(TransferResult result) {
        completions.add(result);
    }

    @Override
    public void onFailure(TransferException failure) {
        failures.add(failure);
    }

    /** Checks the calls of a transfer that returned {@code total} bytes. */
    void assertCompleted(String strategy, long expectedAtStart, long total) {
        assertThat(startStrategies).as("onStart strategy").containsExactly(strategy);
        assertThat(startExpected).as("onStart expectedBytes").containsExactly(expectedAtStart);
        assertProgressEndsAt(total);
        assertThat(failures).as("onFailure calls").isEmpty();
        assertThat(completions).as("onComplete calls").hasSize(1);
        TransferResult result = completions.get(0);
        assertThat(result.bytesTransferred()).as("result bytes").isEqualTo(total);
        assertThat(result.strategy()).as("result strategy").isEqualTo(strategy);
        assertThat(result.reason()).as("result reason").isNotBlank();
    }

    /** Checks the calls of a transfer that failed with {@code failure}. */
    void assertFailed(String strategy, long expectedAtStart, TransferException failure) {
        assertFailedAfterProgress(strategy, expectedAtStart, failure);
        assertProgressEndsAt(failure.bytesTransferred());
    }

    /**
     * As {@link #assertFailed}, except that the last progress call may be short of the failure's
     * count: for a failure that can surface between counting a step and reporting it.
     */
    void assertFailedAfterProgress(String strategy, long expectedAtStart, TransferException failure) {
        assertThat(startStrategies).as("onStart strategy").containsExactly(strategy);
        assertThat(startExpected).as("onStart expectedBytes").containsExactly(expectedAtStart);
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)).as("progress call %d after %d", i, progress.get(i - 1))
                    .isGreaterThan(progress.get(i - 1));
        }
        if (!progress.isEmpty()) {
            assertThat(progress.get(progress.size() - 1)).as("last progress")
                    .isLessThanOrEqualTo(failure.bytesTransferred());
        }
        assertThat(completions).as("onComplete calls").isEmpty();
        assertThat(failures).as("onFailure calls").hasSize(1);
        assertThat(failures.get(0)).as("onFailure argument").isSameAs(failure);
    }

    private void assertProgressEndsAt(long total) {
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)).as("progress call %d after %d", i, progress.get(i - 1))
                    .isGreaterThan(progress.get(i - 1));
        }
        if (total == 0) {
            assertThat(progress).as("progress calls when nothing moved").isEmpty();
        } else {
            assertThat(progress).as("progress calls").isNotEmpty();
            assertThat(progress.get(0)).as("first progress").isPositive();
            assertThat(progress.get(progress.size() - 1)).as("last progress").isEqualTo(total);
        }
    }
}
