package io.zerocopy;

import io.zerocopy.spi.Support;
import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
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

    /** Providers that fail to load before the rest are given up on: the loader cannot always go past one. */
    private static final int MAX_LOAD_FAILURES = 100;

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
            Iterator<TransferStrategy> found = ServiceLoader.load(
                            TransferStrategy.class, Strategies.class.getClassLoader())
                    .iterator();
            for (int failures = 0; failures < MAX_LOAD_FAILURES; ) {
                TransferStrategy s;
                try {
                    if (!found.hasNext()) {
                        break;
                    }
                    s = found.next();
                } catch (ServiceConfigurationError e) {
                    failures++; // the loader goes on to the next provider
                    log.warn("ignoring a registered transfer strategy that could not be loaded", e);
                    continue;
                }
                String name = usableName(s);
                if (name != null && all.putIfAbsent(name, s) == null) {
                    registered.add(s);
                } else if (name != null) {
                    log.warn(
                            "ignoring strategy {} ({}): the name is taken by {}",
                            name,
                            s.getClass().getName(),
                            all.get(name));
                }
            }
            ALL = Collections.unmodifiableMap(all);
            REGISTERED = List.copyOf(registered);
        }
    }

    /**
     * The name a registered strategy is known by, or null (logged) where options and the system
     * properties could not name it: {@code name()} fails, or is blank, padded or holds a comma.
     */
    private static String usableName(TransferStrategy s) {
        String name;
        try {
            name = s.name();
        } catch (RuntimeException e) {
            log.warn("ignoring strategy {}: its name() failed", s.getClass().getName(), e);
            return null;
        }
        if (name == null || name.isBlank() || !name.equals(name.trim()) || name.contains(",")) {
            log.warn(
                    "ignoring strategy {}: its name \"{}\" is blank, padded or holds a comma",
                    s.getClass().getName(),
                    name);
            return null;
        }
        return name;
    }

    /** A registered strategy's answer to {@code request}; null is its bug, said with its name. */
    static Support supports(TransferStrategy s, TransferRequest request) {
        Support support = s.supports(request);
        if (support == null) {
            throw new IllegalStateException(s.name() + ".supports returned null (expected: a Support)");
        }
        return support;
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
