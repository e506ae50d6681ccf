package io.zerocopy;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/** A minimal selector loop for tests that drive a {@link Transfer} as an event loop would. */
final class EventLoops {
    private EventLoops() {}

    /**
     * Drives {@code transfer} on {@code channel} the way a selector loop does: advance, then wait for
     * what it asks for (or its rate-limit delay). Returns the number of advance() calls.
     */
    static int drive(Transfer transfer, SocketChannel channel) throws IOException {
        int calls = 0;
        try (Selector selector = Selector.open()) {
            SelectionKey key = channel.register(selector, transfer.interestOps());
            while (!transfer.isDone()) {
                transfer.advance();
                calls++;
                if (transfer.isDone()) {
                    break;
                }
                long delay = transfer.delayNanos();
                key.interestOps(delay > 0 ? 0 : transfer.interestOps());
                selector.select(delay > 0 ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(delay)) : 1000);
                selector.selectedKeys().clear();
            }
        }
        return calls;
    }
}
