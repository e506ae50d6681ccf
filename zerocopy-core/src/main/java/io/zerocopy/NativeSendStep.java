package io.zerocopy;

import io.zerocopy.spi.TransferStep;

/**
 * The {@code native} strategy's {@code sendfile} step, as seen by Java 17 to 21: never made, since
 * no file is opened natively there. The real one lives in the jar's Java 22 part.
 */
final class NativeSendStep {
    private NativeSendStep() {}

    /** The step for a transfer {@link NativeStrategy#sendsByKernel} said yes to: none here. */
    static TransferStep open(TransferFacts facts) {
        throw new UnsupportedOperationException(NativeFiles.unavailable());
    }
}
