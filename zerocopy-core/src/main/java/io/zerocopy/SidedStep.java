package io.zerocopy;

import io.zerocopy.spi.TransferStep;

/** A step that says which side held up its last move: each move sets {@link #stalledOn}. */
abstract class SidedStep implements TransferStep {
    Side stalledOn = Side.TARGET;

    @Override
    public final Side stalledOn() {
        return stalledOn;
    }
}
