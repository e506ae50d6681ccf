package io.zerocopy.tests;

/** {@link OpenFileCacheContract} with files opened by {@code FileChannel.open} (no native access in this run). */
class OpenFileCacheTest extends OpenFileCacheContract {
    @Override
    boolean natively() {
        return false;
    }
}
