package io.zerocopy;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The strategies a {@link Selection} leaves out: the caller's options' and those the system
 * property {@value TransferOptions#EXCLUDE_PROPERTY} names, parsed again only when its value
 * changes. Thread-safe.
 */
final class Exclusions {
    private final Set<String> byOptions;
    /** The names last worked out, and the property's value they were worked out from. */
    private volatile Parsed last;

    Exclusions(Set<String> byOptions) {
        this.byOptions = Set.copyOf(byOptions);
        this.last = new Parsed(null, this.byOptions);
    }

    /**
     * The options' exclusions and those of {@code property}, the system property's value.
     *
     * @throws IllegalArgumentException if the property names an unknown strategy
     */
    Set<String> with(String property) {
        Parsed p = last;
        if (p.property == null ? property == null : p.property.equals(property)) {
            return p.names;
        }
        Set<String> names = new LinkedHashSet<>(byOptions);
        if (property != null && !property.isBlank()) {
            for (String name : property.split(",")) {
                if (!name.isBlank()) {
                    names.add(Strategies.require(name.trim(), "system property " + TransferOptions.EXCLUDE_PROPERTY)
                            .name());
                }
            }
        }
        p = new Parsed(property, Set.copyOf(names));
        last = p;
        return p.names;
    }

    private record Parsed(String property, Set<String> names) {}
}
