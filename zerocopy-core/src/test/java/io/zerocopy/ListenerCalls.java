package io.zerocopy;

import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

import io.zerocopy.testing.ListenerOrder;
import java.util.List;
import org.mockito.MockMakers;

/**
 * Mock listeners for the core tests, and the listener contract of {@link ListenerOrder} under the
 * names they call it by.
 */
final class ListenerCalls {

    /** What to do on a progress call (truncate a file, interrupt the thread); may throw. */
    @FunctionalInterface
    interface ProgressAction {
        void onProgress(long bytesTransferred) throws Exception;
    }

    private ListenerCalls() {}

    /**
     * A mock listener. It is a {@code java.lang.reflect.Proxy} (Mockito's proxy mock maker), not a
     * generated subclass: Mockito would generate that in package {@code io.zerocopy}, at the running
     * JDK's class file version, and Jazzer, attached to the same fork by {@code TransfersFuzzTest},
     * would try to instrument it and print a stack trace per class on JDK 25 ("Unsupported class file
     * major version 69").
     */
    static TransferListener mockListener() {
        return mock(TransferListener.class, withSettings().mockMaker(MockMakers.PROXY));
    }

    /** A mock listener that runs {@code action} on every progress call, on the copying thread. */
    static TransferListener onProgress(ProgressAction action) {
        TransferListener listener = mockListener();
        doAnswer(call -> {
                    action.onProgress(call.getArgument(0, Long.class));
                    return null;
                })
                .when(listener)
                .onProgress(anyLong());
        return listener;
    }

    static List<Long> progress(TransferListener listener) {
        return ListenerOrder.progress(listener);
    }

    static TransferResult verifyCompleted(
            TransferListener listener, String strategy, long expectedAtStart, long total) {
        return ListenerOrder.verifyCompleted(listener, strategy, expectedAtStart, total);
    }

    static void verifyFailed(
            TransferListener listener, String strategy, long expectedAtStart, TransferException failure) {
        ListenerOrder.verifyFailed(listener, strategy, expectedAtStart, failure);
    }

    static List<Long> verifyFailedAfterProgress(
            TransferListener listener, String strategy, long expectedAtStart, TransferException failure) {
        return ListenerOrder.verifyFailedAfterProgress(listener, strategy, expectedAtStart, failure);
    }
}
