package io.zerocopy;

import io.zerocopy.spi.TransferStrategy;
import io.zerocopy.testing.TransferStrategyContract;
import java.nio.channels.WritableByteChannel;

/**
 * What a strategy author writes: the contract subclassed for one registered strategy. This one
 * serves only its marker target, so the contract's targets are wrapped in one.
 */
class CountingTestStrategyContractTest extends TransferStrategyContract {

    @Override
    protected TransferStrategy strategy() {
        return new CountingTestStrategy();
    }

    @Override
    protected WritableByteChannel target(WritableByteChannel target) {
        return new CountingTestStrategy.MarkerTarget(target);
    }
}
