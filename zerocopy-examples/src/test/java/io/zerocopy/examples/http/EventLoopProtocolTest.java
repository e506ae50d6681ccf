package io.zerocopy.examples.http;

/** {@link ProtocolContract} on the event-loop engine. */
class EventLoopProtocolTest extends ProtocolContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.EVENT_LOOP;
    }
}
