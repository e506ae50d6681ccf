package io.zerocopy.examples.http;

/** {@link CachedFilesContract} on the threads engine. */
class ThreadsCachedFilesTest extends CachedFilesContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.THREADS;
    }
}
