package io.zerocopy.benchmarks.scale;

import io.zerocopy.Transfer;
import io.zerocopy.Transfers;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * The library in an event loop: one {@link Transfer} per connection, advanced on each write
 * readiness; the library chooses the strategy, opens the file and closes it when done.
 */
final class HandleStep implements Contender.Step {
    private final Transfer transfer;

    HandleStep(Path source, SocketChannel target) throws IOException {
        this.transfer = Transfers.open(source, target);
    }

    @Override
    public boolean advance() throws IOException {
        transfer.advance();
        return transfer.isDone();
    }

    @Override
    public void close() {
        transfer.close();
    }

    @Override
    public String toString() {
        return transfer.toString();
    }
}
