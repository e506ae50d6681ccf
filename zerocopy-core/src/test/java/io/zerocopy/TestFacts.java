package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;

/** Facts and choices made by hand for tests, where the verbs would make them from a call. */
final class TestFacts {
    private TestFacts() {}

    /** The facts of {@code request} run with {@code options} on {@code platform}, its target's peer read now. */
    static TransferFacts of(
            TransferRequest request, TransferOptions options, Platform platform, boolean sourceDirectIo) {
        return new TransferFacts(
                request, Peers.of(request.target(), platform), options, platform, sourceDirectIo, 0, 0);
    }

    /** A choice of {@code strategy} whose reason is {@code reason}, as a registered strategy's would be. */
    static Choice choice(TransferStrategy strategy, String reason) {
        return Choice.ofRegistered(strategy, null, Support.yes(reason), (choice, how) -> how);
    }
}
