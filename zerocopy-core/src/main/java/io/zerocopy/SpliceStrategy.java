package io.zerocopy;

import io.zerocopy.spi.TransferStep;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code splice} strategy as seen by Java 17 to 21: it never serves a request. The real one,
 * Linux {@code splice(2)} from a socket through a pipe to a socket or a file, needs the FFM API
 * and lives in the jar's Java 22 part ({@code META-INF/versions/22}), which a JDK 22+ loads instead
 * of this class. Stateless; one shared instance.
 */
final class SpliceStrategy extends BuiltInStrategy {
    static final SpliceStrategy INSTANCE = new SpliceStrategy();

    static final String NAME = "splice";

    private static final Logger log = LoggerFactory.getLogger(SpliceStrategy.class);
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    private SpliceStrategy() {
        super(NAME);
    }

    @Override
    String refusal(TransferFacts facts) {
        int feature = Runtime.version().feature();
        String reason = feature < 22
                ? "splice needs Java 22 or later (the FFM API); this JVM is Java " + feature
                : "this zerocopy-core has no Java 22 part: it was built by a JDK before 22, or its classes"
                        + " are not loaded from the multi-release jar";
        if (LOGGED.compareAndSet(false, true)) {
            log.debug("splice is unavailable: {}", reason);
        }
        return reason;
    }

    @Override
    String how(TransferFacts facts, ByteBuffer pooled) {
        throw new IllegalStateException("splice never serves a transfer on this JDK");
    }

    @Override
    TransferStep open(TransferFacts facts, ByteBuffer pooled, boolean firstBytesRead) throws IOException {
        throw new IOException("splice is unavailable: " + refusal(facts));
    }
}
