package io.zerocopy;

import io.zerocopy.spi.TransferRequest;
import io.zerocopy.spi.TransferStrategy;
import java.util.List;
import java.util.Set;

/** Choosing for a bare request in tests, with the options' and the properties' settings given; nothing runs. */
final class Selections {
    private Selections() {}

    static Choice choose(
            List<TransferStrategy> registered,
            TransferRequest request,
            String forced,
            Set<String> excluded,
            String forcedByProperty,
            String excludedByProperty) {
        return choose(registered, TransferFacts.of(request), forced, excluded, forcedByProperty, excludedByProperty);
    }

    static Choice choose(
            List<TransferStrategy> registered,
            TransferFacts facts,
            String forced,
            Set<String> excluded,
            String forcedByProperty,
            String excludedByProperty) {
        Choice choice = new Selection(registered, forced, excluded).choose(facts, forcedByProperty, excludedByProperty);
        choice.release(); // no step runs: the buffer it took goes back to the pool, its reason stays readable
        return choice;
    }

    static Choice choose(
            TransferRequest request,
            String forced,
            Set<String> excluded,
            String forcedByProperty,
            String excludedByProperty) {
        return choose(Strategies.registered(), request, forced, excluded, forcedByProperty, excludedByProperty);
    }

    static Choice choose(
            TransferFacts facts,
            String forced,
            Set<String> excluded,
            String forcedByProperty,
            String excludedByProperty) {
        return choose(Strategies.registered(), facts, forced, excluded, forcedByProperty, excludedByProperty);
    }

    /** The facts of {@code request} as if run on {@code platform} with default options. */
    static TransferFacts on(Platform platform, TransferRequest request) {
        return TestFacts.of(request, TransferOptions.defaults(), platform, false);
    }
}
