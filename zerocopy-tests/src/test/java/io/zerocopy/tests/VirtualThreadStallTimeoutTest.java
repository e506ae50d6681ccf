package io.zerocopy.tests;

/** {@link StallTimeoutTest}'s cases with the copy on a virtual thread (Java 21 and later). */
class VirtualThreadStallTimeoutTest extends StallTimeoutTest {
    @Override
    ThreadKind threads() {
        return ThreadKind.VIRTUAL;
    }
}
