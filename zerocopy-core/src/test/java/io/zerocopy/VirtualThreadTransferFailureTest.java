package io.zerocopy;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/** {@link TransferFailureTest}'s cases with the transfer on a virtual thread (Java 21 and later). */
class VirtualThreadTransferFailureTest extends TransferFailureTest {
    /** Runs {@code transfer} on a new virtual thread and rethrows what it threw, as itself. */
    @Override
    <T> T onCopyingThread(Callable<T> transfer) throws Exception {
        ThreadFactory virtual = (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                .getMethod("factory")
                .invoke(Thread.class.getMethod("ofVirtual").invoke(null));
        CompletableFuture<T> outcome = new CompletableFuture<>();
        virtual.newThread(() -> {
                    try {
                        outcome.complete(transfer.call());
                    } catch (Throwable t) {
                        outcome.completeExceptionally(t);
                    }
                })
                .start();
        try {
            return outcome.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw (Error) e.getCause();
        }
    }
}
