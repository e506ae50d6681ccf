package io.zerocopy.tests;

/** {@link InterruptTest}'s cases with the copy on a virtual thread (Java 21 and later). */
class VirtualThreadInterruptTest extends InterruptTest {
    @Override
    ThreadKind threads() {
        return ThreadKind.VIRTUAL;
    }
}
