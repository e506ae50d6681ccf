package io.zerocopy;

import io.zerocopy.spi.TransferStrategy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every strategy this JVM knows: the built-in ones and those registered through
 * {@link ServiceLoader}, loaded once.
 */
final class Strategies {
    private static final Logger log = LoggerFactory.getLogger(Strategies.class);

    static final List<TransferStrategy> BUILT_IN = List.of(
            TransferToStrategy.INSTANCE,
            TransferFromStrategy.INSTANCE,
            MappedStrategy.INSTANCE,
            BufferedStrategy.INSTANCE,
            SpliceStrategy.INSTANCE,
            NativeStrategy.INSTANCE);

    private Strategies() {}

    private static final class Holder {
        static final Map<String, TransferStrategy> ALL;
        static final List<TransferStrategy> REGISTERED;

        static {
            Map<String, TransferStrategy> all = new LinkedHashMap<>();
            for (TransferStrategy s : BUILT_IN) {
                all.put(s.name(), s);
            }
            List<TransferStrategy> registered = new ArrayList<>();
            try {
                for (TransferStrategy s :
                        ServiceLoader.load(TransferStrategy.class, Strategies.class.getClassLoader())) {
                    if (all.putIfAbsent(s.name(), s) == null) {
                        registered.add(s);
                    } else {
                        log.warn(
                                "ignoring strategy {} ({}): the name is taken by {}",
                                s.name(),
                                s.getClass().getName(),
                                all.get(s.name()));
                    }
                }
            } catch (ServiceConfigurationError e) {
                log.warn("could not load registered transfer strategies; using the built-in ones", e);
            }
            ALL = Collections.unmodifiableMap(all);
            REGISTERED = List.copyOf(registered);
        }
    }

    /** All strategies by name: the built-in ones first, then registered ones in discovery order. */
    static Map<String, TransferStrategy> all() {
        return Holder.ALL;
    }

    /** Strategies registered through {@link ServiceLoader}, in discovery order. */
    static List<TransferStrategy> registered() {
        return Holder.REGISTERED;
    }

    /** The strategy with this name; {@code IllegalArgumentException} naming {@code parameter} if there is none. */
    static TransferStrategy require(String name, String parameter) {
        TransferStrategy s = Holder.ALL.get(name);
        if (s == null) {
            throw new IllegalArgumentException(
                    parameter + ": " + name + " (expected one of: " + String.join(", ", Holder.ALL.keySet()) + ")");
        }
        return s;
    }
}
