package io.zerocopy.examples;

import io.zerocopy.TransferListener;
import io.zerocopy.TransferResult;
import java.util.concurrent.atomic.AtomicReference;

/** A listener that keeps the result of the last transfer that completed, to print its strategy. */
final class LastResult implements TransferListener {
    private final AtomicReference<TransferResult> last = new AtomicReference<>();

    @Override
    public void onComplete(TransferResult result) {
        last.set(result);
    }

    /** The last completed transfer's result, or null if none completed (nothing to move). */
    TransferResult get() {
        return last.get();
    }
}
