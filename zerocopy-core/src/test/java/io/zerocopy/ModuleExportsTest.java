package io.zerocopy;

import static org.assertj.core.api.Assertions.assertThat;

import io.zerocopy.spi.TransferStrategy;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins what each module exports, reading the compiled {@code module-info} descriptors (tests run on
 * the class path, so the module system itself does not check them here). Each artifact owns its
 * packages and exports exactly its API.
 */
class ModuleExportsTest {

    /**
     * The descriptor of the module whose classes {@code type} was loaded from: in a reactor build
     * {@code target/classes} of core and {@code ../zerocopy-api/target/classes} of the api, or the
     * installed jar when the api module comes from the local repository.
     */
    private static ModuleDescriptor descriptorOf(Class<?> type, String expectedName) throws URISyntaxException {
        Path location =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleReference reference = ModuleFinder.of(location)
                .find(expectedName)
                .orElseThrow(() -> new AssertionError("no module " + expectedName + " in " + location));
        return reference.descriptor();
    }

    private static Set<String> exported(ModuleDescriptor descriptor) {
        return descriptor.exports().stream()
                .map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet());
    }

    @Test
    void core_exportsOnlyItsFacadePackage() throws URISyntaxException {
        ModuleDescriptor core = descriptorOf(Transfers.class, "io.zerocopy");

        assertThat(exported(core)).containsExactly("io.zerocopy");
        assertThat(core.exports()).allMatch(e -> !e.isQualified(), "no qualified exports");
        assertThat(core.opens()).isEmpty();
        assertThat(core.isOpen()).isFalse();
    }

    @Test
    void core_usesTheStrategySpi() throws URISyntaxException {
        ModuleDescriptor core = descriptorOf(Transfers.class, "io.zerocopy");

        assertThat(core.uses()).containsExactly(TransferStrategy.class.getName());
        assertThat(core.requires()).anySatisfy(r -> {
            assertThat(r.name()).isEqualTo("io.zerocopy.api");
            assertThat(r.modifiers()).contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE);
        });
    }

    @Test
    void core_requiresJdkUnsupportedForPromptUnmapping() throws URISyntaxException {
        ModuleDescriptor core = descriptorOf(Transfers.class, "io.zerocopy");

        // not 'static': a static requires does not resolve the module, and Unsafe would be missing
        assertThat(core.requires()).anySatisfy(r -> {
            assertThat(r.name()).isEqualTo("jdk.unsupported");
            assertThat(r.modifiers()).doesNotContain(ModuleDescriptor.Requires.Modifier.STATIC);
        });
    }

    @Test
    void api_exportsOnlyTheSpi() throws URISyntaxException {
        ModuleDescriptor api = descriptorOf(TransferStrategy.class, "io.zerocopy.api");

        assertThat(exported(api)).containsExactly("io.zerocopy.spi");
        assertThat(api.exports()).allMatch(e -> !e.isQualified(), "no qualified exports");
        assertThat(api.requires()).extracting(ModuleDescriptor.Requires::name).containsExactly("java.base");
        assertThat(api.opens()).isEmpty();
    }

    @Test
    void modules_shareNoPackage() throws URISyntaxException {
        Set<String> core = descriptorOf(Transfers.class, "io.zerocopy").packages();
        Set<String> api =
                descriptorOf(TransferStrategy.class, "io.zerocopy.api").packages();

        Set<String> shared = new HashSet<>(core);
        shared.retainAll(api);

        assertThat(core).contains("io.zerocopy");
        assertThat(api).contains("io.zerocopy.spi");
        assertThat(shared).as("split packages").isEmpty();
    }
}
