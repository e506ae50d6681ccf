package io.zerocopy.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferResult;
import java.util.List;
import java.util.stream.Collectors;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

/**
 * The listener contract, checked on a Mockito mock of {@link TransferListener}: {@code onStart}
 * once, then {@code onProgress} with increasing counts, then exactly one of {@code onComplete} or
 * {@code onFailure}, in that order, and nothing else. For transfers of a few MiB: a mock remembers
 * every call.
 */
public final class ListenerOrder {

    private ListenerOrder() {}

    /** The counts of every progress call so far, in order, without verifying anything. */
    public static List<Long> progress(TransferListener listener) {
        return mockingDetails(listener).getInvocations().stream()
                .filter(i -> i.getMethod().getName().equals("onProgress"))
                .map(i -> i.getArgument(0, Long.class))
                .collect(Collectors.toList());
    }

    /** Verifies the calls of a transfer that returned {@code total} bytes; returns the result it was told. */
    public static TransferResult verifyCompleted(
            TransferListener listener, String strategy, long expectedAtStart, long total) {
        InOrder inOrder = inOrder(listener);
        inOrder.verify(listener).onStart(strategy, expectedAtStart);
        if (total > 0) {
            ArgumentCaptor<Long> progress = ArgumentCaptor.forClass(Long.class);
            inOrder.verify(listener, atLeastOnce()).onProgress(progress.capture());
            assertIncreasing(progress.getAllValues());
            assertThat(progress.getAllValues().get(0)).as("first progress").isPositive();
            assertThat(progress.getAllValues()).as("progress calls").last().isEqualTo(total);
        }
        ArgumentCaptor<TransferResult> result = ArgumentCaptor.forClass(TransferResult.class);
        inOrder.verify(listener).onComplete(result.capture());
        verifyNoMoreInteractions(listener); // no progress when nothing moved, no onFailure, no second ending
        assertThat(result.getValue().bytesTransferred()).as("result bytes").isEqualTo(total);
        assertThat(result.getValue().strategy()).as("result strategy").isEqualTo(strategy);
        assertThat(result.getValue().reason()).as("result reason").isNotBlank();
        return result.getValue();
    }

    /** Verifies the calls of a transfer that failed with {@code failure}: the last progress is its count. */
    public static void verifyFailed(
            TransferListener listener, String strategy, long expectedAtStart, TransferException failure) {
        List<Long> progress = verifyFailedAfterProgress(listener, strategy, expectedAtStart, failure);
        if (failure.bytesTransferred() == 0) {
            assertThat(progress).as("progress calls when nothing moved").isEmpty();
        } else {
            assertThat(progress).as("progress calls").isNotEmpty().last().isEqualTo(failure.bytesTransferred());
        }
    }

    /**
     * As {@link #verifyFailed}, except that the last progress call may be short of the failure's
     * count: for a failure that can surface between counting a step and reporting it.
     */
    public static List<Long> verifyFailedAfterProgress(
            TransferListener listener, String strategy, long expectedAtStart, TransferException failure) {
        List<Long> progress = progress(listener);
        InOrder inOrder = inOrder(listener);
        inOrder.verify(listener).onStart(strategy, expectedAtStart);
        if (!progress.isEmpty()) {
            inOrder.verify(listener, atLeastOnce()).onProgress(anyLong());
            assertIncreasing(progress);
            assertThat(progress)
                    .as("progress calls")
                    .last()
                    .satisfies(last ->
                            assertThat(last).as("last progress").isLessThanOrEqualTo(failure.bytesTransferred()));
        }
        inOrder.verify(listener).onFailure(failure);
        verifyNoMoreInteractions(listener);
        return progress;
    }

    /**
     * Verifies a transfer that failed with {@code failure} after any number of progress calls, each
     * at most its count, whatever count {@code onStart} was told.
     */
    public static void verifyFailed(TransferListener listener, String strategy, TransferException failure) {
        List<Long> progress = progress(listener);
        InOrder inOrder = inOrder(listener);
        inOrder.verify(listener).onStart(eq(strategy), anyLong());
        if (!progress.isEmpty()) {
            inOrder.verify(listener, atLeastOnce()).onProgress(anyLong());
            assertIncreasing(progress);
            progress.forEach(p -> assertThat(p).as("progress").isLessThanOrEqualTo(failure.bytesTransferred()));
        }
        inOrder.verify(listener).onFailure(failure);
        verifyNoMoreInteractions(listener);
    }

    private static void assertIncreasing(List<Long> progress) {
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i))
                    .as("progress call %d after %d", i, progress.get(i - 1))
                    .isGreaterThan(progress.get(i - 1));
        }
    }
}
