package io.zerocopy.tests;

/** {@link PeerResetTest}'s cases with the copy on a virtual thread (Java 21 and later). */
class VirtualThreadPeerResetTest extends PeerResetTest {
    @Override
    ThreadKind threads() {
        return ThreadKind.VIRTUAL;
    }
}
