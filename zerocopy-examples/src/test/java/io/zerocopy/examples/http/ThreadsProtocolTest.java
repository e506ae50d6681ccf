package io.zerocopy.examples.http;

/** {@link ProtocolContract} on the threads engine. */
class ThreadsProtocolTest extends ProtocolContract {
    @Override
    ServerConfig.Engine engine() {
        return ServerConfig.Engine.THREADS;
    }
}
