package io.zerocopy.examples.http;

/** {@link RobustnessContract} on the event-loop engine. */
class EventLoopRobustnessTest extends RobustnessContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.EVENT_LOOP;
    }
}
