package io.fastccs.it;

import io.fastccs.check.TccChecker;
import io.fastccs.client.FastCcsClient;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.tools.cluster.LocalCluster;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Loads (without initializing) every class of the project's own modules on the test classpath, once, at the start.
 * Several developers share this machine's local Maven repository: a colleague's {@code mvn install} during a
 * several-minute run rewrites the very jars this JVM reads classes from lazily, and the next class loaded from
 * them is then missing ({@link NoClassDefFoundError} in the middle of a cluster start). Classes already defined are
 * immune to that.
 */
final class ClassPin {
    private static boolean done;

    private ClassPin() {
    }

    static synchronized void pinProjectClasses() {
        if (done) return;
        done = true;
        int loaded = 0;
        List<String> failed = new ArrayList<>();
        for (Class<?> anchor : List.of(LocalCluster.class, FastCcsClient.class, TccChecker.class, WireCodec.class)) {
            for (String name : classNames(anchor)) {
                try {
                    Class.forName(name, false, ClassPin.class.getClassLoader());
                    loaded++;
                } catch (ClassNotFoundException | LinkageError e) {
                    failed.add(name + ": " + e);
                }
            }
        }
        TestCluster.log("pinned " + loaded + " classes of the project's modules" + (failed.isEmpty() ? "" : "; could not load " + failed));
    }

    /** The classes in the jar or directory {@code anchor} was loaded from. */
    private static List<String> classNames(Class<?> anchor) {
        List<String> names = new ArrayList<>();
        try {
            Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location)) {
                    files.filter(f -> f.toString().endsWith(".class"))
                            .forEach(f -> names.add(toClassName(location.relativize(f).toString())));
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        String entry = e.nextElement().getName();
                        if (entry.endsWith(".class") && !entry.endsWith("module-info.class")) names.add(toClassName(entry));
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            TestCluster.log("cannot list the classes next to " + anchor.getName() + ": " + e);
        }
        return names;
    }

    private static String toClassName(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.').replace('\\', '.');
    }
}
