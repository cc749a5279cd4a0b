package io.fastccs.client;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

/** A TLS context that trusts the certificates of a truststore file, for the command-line client and the stress tool. */
public final class Truststore {
    private Truststore() {
    }

    /**
     * @param file     a PKCS12 or JKS truststore (the type is detected)
     * @param password its password, or null if it has none
     */
    public static SSLContext sslContext(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(file.toFile(), password == null ? null : password.toCharArray());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        return tls;
    }
}
