package io.zerocopy;

import io.zerocopy.spi.TransferStrategy;
import io.zerocopy.testing.TransferStrategyContract;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The strategy contract for {@code native}, over sources opened as a server opens them
 * ({@link OpenFile}): natively, in this module's native-access run on Java 22+.
 */
class NativeStrategyContractTest extends TransferStrategyContract {

    @Override
    protected TransferStrategy strategy() {
        return NativeStrategy.INSTANCE;
    }

    @Override
    protected FileChannel openSource(Path file) throws IOException {
        OpenFile opened = OpenFile.open(file);
        if (!opened.openedNatively()) {
            opened.close();
            throw new IllegalStateException("not opened natively: this run needs Java 22+ and native access");
        }
        return opened.channel();
    }
}
