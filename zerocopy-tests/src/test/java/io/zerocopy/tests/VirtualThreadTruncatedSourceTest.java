package io.zerocopy.tests;

/** {@link TruncatedSourceTest}'s cases with the copy on a virtual thread (Java 21 and later). */
class VirtualThreadTruncatedSourceTest extends TruncatedSourceTest {
    @Override
    ThreadKind threads() {
        return ThreadKind.VIRTUAL;
    }
}
