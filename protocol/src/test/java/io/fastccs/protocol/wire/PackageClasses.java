package io.fastccs.protocol.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;

/** The classes of a package as the class path holds them (class directories and jars), nested ones included. */
final class PackageClasses {
    private PackageClasses() {
    }

    static Set<Class<?>> of(String packageName) {
        String dir = packageName.replace('.', '/');
        Set<Class<?>> out = new HashSet<>();
        try {
            Enumeration<URL> roots = PackageClasses.class.getClassLoader().getResources(dir);
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                if (url.getProtocol().equals("jar")) {
                    var jar = ((JarURLConnection) url.openConnection()).getJarFile();
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                        String name = e.nextElement().getName();
                        if (name.startsWith(dir + "/") && name.endsWith(".class") && name.indexOf('/', dir.length() + 1) < 0)
                            out.add(load(name.substring(0, name.length() - 6).replace('/', '.')));
                    }
                } else {
                    try (var files = Files.list(Path.of(url.toURI()))) {
                        for (Path f : files.toList()) {
                            String name = f.getFileName().toString();
                            if (name.endsWith(".class")) out.add(load(packageName + "." + name.substring(0, name.length() - 6)));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PackageClasses.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
