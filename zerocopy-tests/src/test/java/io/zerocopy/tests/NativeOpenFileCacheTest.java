package io.zerocopy.tests;

/** {@link OpenFileCacheContract} with files opened natively (Java 22+ with native access: this module's native run). */
class NativeOpenFileCacheTest extends OpenFileCacheContract {
    @Override
    boolean natively() {
        return true;
    }
}
