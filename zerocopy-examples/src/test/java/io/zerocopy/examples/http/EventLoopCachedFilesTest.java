package io.zerocopy.examples.http;

/** {@link CachedFilesContract} on the event loop. */
class EventLoopCachedFilesTest extends CachedFilesContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.EVENT_LOOP;
    }
}
