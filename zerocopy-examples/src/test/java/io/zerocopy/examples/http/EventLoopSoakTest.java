package io.zerocopy.examples.http;

/** {@link SoakContract} on the event-loop engine. */
class EventLoopSoakTest extends SoakContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.EVENT_LOOP;
    }
}
