package io.zerocopy;

/** Platforms that tests build by hand. */
final class Platforms {
    private Platforms() {}

    /** {@code platform} with Windows' {@code jdk.nio.enableFastFileTransfer} switched on or off. */
    static Platform withFastFileTransfer(Platform platform, boolean enabled) {
        return Platform.of(platform.os(), platform.javaFeature(), platform.osVersion(), enabled);
    }
}
