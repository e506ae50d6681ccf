import java.io.IOException;
import java.io.OutputStream;
import java.lang.classfile.Attribute;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.attribute.ModulePackagesAttribute;
import java.lang.classfile.constantpool.PackageEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites module-info.class in a jar into one canonical form, then the jar itself.
 *
 * <p>maven-jar-plugin adds the ModulePackages attribute with the jar tool of the JDK that runs
 * Maven: JDK 17's rebuilds the constant pool in its own order, JDK 25's keeps javac's, so the
 * same classes gave jars that differ by that one entry. Here the descriptor is rebuilt with a
 * fresh constant pool, attributes and packages sorted, and every entry is written again with its
 * name, order, local time and method unchanged. Run by the build JDK (docs/release.md), so the
 * result depends only on the jar's content. Usage: java NormalizeModuleInfo.java JAR
 */
public final class NormalizeModuleInfo {
    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".normalized");
        try (ZipFile in = new ZipFile(jar.toFile());
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(rewritten))) {
            for (ZipEntry entry : Collections.list(in.entries())) {
                byte[] bytes = in.getInputStream(entry).readAllBytes();
                if (entry.getName().equals("module-info.class")) {
                    bytes = canonical(bytes);
                }
                write(out, entry, bytes);
            }
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
    }

    private static byte[] canonical(byte[] descriptor) {
        ClassFile classFile = ClassFile.of(ClassFile.ConstantPoolSharingOption.NEW_POOL);
        ClassModel model = classFile.parse(descriptor);
        List<Attribute<?>> attributes = new ArrayList<>(model.attributes());
        attributes.sort(Comparator.comparing(attribute -> attribute.attributeName().stringValue()));
        return classFile.build(model.thisClass().asSymbol(), builder -> {
            builder.withVersion(model.majorVersion(), model.minorVersion());
            builder.withFlags(model.flags().flagsMask());
            for (Attribute<?> attribute : attributes) {
                if (attribute instanceof ModulePackagesAttribute packages) {
                    builder.with(ModulePackagesAttribute.ofNames(packages.packages().stream()
                            .map(PackageEntry::asSymbol)
                            .sorted(Comparator.comparing(p -> p.name()))
                            .toList()));
                } else {
                    builder.with((ClassElement) attribute);
                }
            }
        });
    }

    private static void write(ZipOutputStream out, ZipEntry original, byte[] bytes) throws IOException {
        ZipEntry entry = new ZipEntry(original.getName());
        entry.setTimeLocal(original.getTimeLocal());
        entry.setMethod(original.getMethod());
        if (original.getMethod() == ZipEntry.STORED) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            entry.setSize(bytes.length);
            entry.setCompressedSize(bytes.length);
            entry.setCrc(crc.getValue());
        }
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }

    private NormalizeModuleInfo() {}
}
