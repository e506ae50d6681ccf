package io.zerocopy.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.atLeast;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import io.zerocopy.TransferException;
import io.zerocopy.TransferListener;
import io.zerocopy.TransferResult;
import java.util.List;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;

/**
 * The listener contract, verified in order on a Mockito mock: {@code onStart}, then
 * {@code onProgress} with increasing counts, then exactly one ending, and nothing else. For
 * transfers of a few MiB: a mock remembers every call, so gigabyte transfers and listeners that
 * must act on the copying thread use {@link RecordingListener}.
 */
final class ListenerOrder {

    private ListenerOrder() {
    }

    /** Verifies a transfer that completed with {@code total} bytes; returns the result the listener was given. */
    static TransferResult verifyCompleted(TransferListener listener, String strategy, long expectedBytes, long total) {
        InOrder inOrder = inOrder(listener);
        inOrder.verify(listener).onStart(strategy, expectedBytes);
        if (total > 0) {
            ArgumentCaptor<Long> progress = ArgumentCaptor.forClass(Long.class);
            inOrder.verify(listener, atLeastOnce()).onProgress(progress.capture());
            assertIncreasing(progress.getAllValues());
            assertThat(progress.getAllValues()).as("progress calls").last().isEqualTo(total);
        }
        ArgumentCaptor<TransferResult> result = ArgumentCaptor.forClass(TransferResult.class);
        inOrder.verify(listener).onComplete(result.capture());
        verifyNoMoreInteractions(listener);
        assertThat(result.getValue().bytesTransferred()).as("result bytes").isEqualTo(total);
        assertThat(result.getValue().strategy()).as("result strategy").isEqualTo(strategy);
        return result.getValue();
    }

    /** Verifies a transfer that failed with {@code failure} after any number of progress calls. */
    static void verifyFailed(TransferListener listener, String strategy, TransferException failure) {
        InOrder inOrder = inOrder(listener);
        inOrder.verify(listener).onStart(eq(strategy), anyLong());
        ArgumentCaptor<Long> progress = ArgumentCaptor.forClass(Long.class);
        inOrder.verify(listener, atLeast(0)).onProgress(progress.capture());
        assertIncreasing(progress.getAllValues());
        progress.getAllValues().forEach(p -> assertThat(p).as("progress").isLessThanOrEqualTo(failure.bytesTransferred()));
        inOrder.verify(listener).onFailure(failure);
        verifyNoMoreInteractions(listener);
    }

    private static void assertIncreasing(List<Long> progress) {
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)).as("progress call %d after %d", i, progress.get(i - 1))
                    .isGreaterThan(progress.get(i - 1));
        }
    }
}
