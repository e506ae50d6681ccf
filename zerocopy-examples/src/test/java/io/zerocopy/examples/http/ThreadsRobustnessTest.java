package io.zerocopy.examples.http;

/** {@link RobustnessContract} on the threads engine. */
class ThreadsRobustnessTest extends RobustnessContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.THREADS;
    }
}
