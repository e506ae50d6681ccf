package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStep;
import io.zerocopy.spi.TransferStrategy;

/**
 * Registered strategies that break the SPI's rules, listed in this module's
 * {@code META-INF/services} before {@link CountingTestStrategy}: each must be left out with a
 * warning, and none may keep the library or the providers after it from loading
 * ({@code RegisteredStrategyTest}).
 */
final class BrokenStrategies {
    private BrokenStrategies() {}

    /** Base of the broken ones: serves nothing, so it could never run a transfer. */
    abstract static class Broken implements TransferStrategy {
        @Override
        public Support supports(TransferRequest request) {
            return Support.no("a broken strategy for a test");
        }

        @Override
        public TransferStep open(TransferRequest request) {
            throw new UnsupportedOperationException("never chosen");
        }
    }

    /** Fails to be made: the loader reports a {@code ServiceConfigurationError}. */
    public static final class FailsToConstruct extends Broken {
        public FailsToConstruct() {
            throw new IllegalStateException("cannot be made");
        }

        @Override
        public String name() {
            return "failsToConstruct";
        }
    }

    public static final class NameThrows extends Broken {
        @Override
        public String name() {
            throw new IllegalStateException("no name");
        }
    }

    public static final class NameNull extends Broken {
        @Override
        public String name() {
            return null;
        }
    }

    /** A name the system properties, which trim what they name, could not name. */
    public static final class NamePadded extends Broken {
        @Override
        public String name() {
            return "padded ";
        }
    }

    /** A name the exclusion property, a comma-separated list, could not name. */
    public static final class NameWithComma extends Broken {
        @Override
        public String name() {
            return "with,comma";
        }
    }
}
