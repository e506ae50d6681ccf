package io.zerocopy.examples.http;

/** {@link SoakContract} on the threads engine. */
class ThreadsSoakTest extends SoakContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.THREADS;
    }
}
