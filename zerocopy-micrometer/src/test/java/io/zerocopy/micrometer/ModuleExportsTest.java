package io.zerocopy.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.Transfers;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins what the module exports and requires, reading the compiled {@code module-info} (tests run
 * on the class path, so the module system itself does not check it here).
 */
class ModuleExportsTest {

    private static ModuleDescriptor descriptorOf(Class<?> type, String expectedName) throws URISyntaxException {
        Path location =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        return ModuleFinder.of(location)
                .find(expectedName)
                .orElseThrow(() -> new AssertionError("no module " + expectedName + " in " + location))
                .descriptor();
    }

    @Test
    void micrometer_exportsOnlyItsPackage() throws URISyntaxException {
        ModuleDescriptor module = descriptorOf(TransferMetrics.class, "io.zerocopy.micrometer");

        assertThat(module.exports())
                .extracting(ModuleDescriptor.Exports::source)
                .containsExactly("io.zerocopy.micrometer");
        assertThat(module.exports()).allMatch(e -> !e.isQualified(), "no qualified exports");
        assertThat(module.packages()).containsExactly("io.zerocopy.micrometer");
        assertThat(module.opens()).isEmpty();
        assertThat(module.isOpen()).isFalse();
        assertThat(module.uses()).isEmpty();
        assertThat(module.provides()).isEmpty();
    }

    @Test
    void micrometer_requiresCoreAndMicrometerTransitively() throws URISyntaxException {
        ModuleDescriptor module = descriptorOf(TransferMetrics.class, "io.zerocopy.micrometer");

        Set<String> transitive = module.requires().stream()
                .filter(r -> r.modifiers().contains(Requires.Modifier.TRANSITIVE))
                .map(Requires::name)
                .collect(Collectors.toSet());
        assertThat(transitive).containsExactlyInAnyOrder("io.zerocopy", "micrometer.core");
        assertThat(module.requires())
                .extracting(Requires::name)
                .containsExactlyInAnyOrder("java.base", "io.zerocopy", "micrometer.core");
    }

    @Test
    void micrometer_sharesNoPackageWithCore() throws URISyntaxException {
        Set<String> shared = new HashSet<>(
                descriptorOf(TransferMetrics.class, "io.zerocopy.micrometer").packages());
        shared.retainAll(descriptorOf(Transfers.class, "io.zerocopy").packages());

        assertThat(shared).as("split packages").isEmpty();
    }
}
