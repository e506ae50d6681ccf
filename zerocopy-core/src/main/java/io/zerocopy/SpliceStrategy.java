package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code splice} strategy as seen by Java 17 to 21: it never serves a request. The real one,
 * Linux {@code splice(2)} from a socket through a pipe to a socket or a file, needs the FFM API
 * and lives in the jar's Java 22 part ({@code META-INF/versions/22}), which a JDK 22+ loads instead
 * of this class. Stateless; one shared instance.
 */
final class SpliceStrategy implements TransferStrategy {
    static final SpliceStrategy INSTANCE = new SpliceStrategy();

    static final String NAME = "splice";

    private static final Logger log = LoggerFactory.getLogger(SpliceStrategy.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    private SpliceStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Support supports(TransferRequest request) {
        int feature = Runtime.version().feature();
        String reason = feature < 22
                ? "splice needs Java 22 or later (the FFM API); this JVM is Java " + feature
                : "this zerocopy-core has no Java 22 part: it was built by a JDK before 22, or its classes"
                        + " are not loaded from the multi-release jar";
        if (LOGGED.compareAndSet(false, true)) {
            log.debug("splice is unavailable: {}", reason);
        }
        return Support.no(reason);
    }

    @Override
    public TransferStep open(TransferRequest request) throws IOException {
        throw new IOException("splice is unavailable: " + supports(request).reason());
    }

    @Override
    public String toString() {
        return NAME;
    }
}
