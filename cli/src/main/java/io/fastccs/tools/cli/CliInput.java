package io.fastccs.tools.cli;

import io.fastccs.client.Truststore;

import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClientBuilder;
import io.fastccs.client.WriteBuilder;
import io.fastccs.tools.cluster.Ports;

import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses and checks what the command-line client is given, before it connects: contact points, the timeout, a
 * causal token, {@code KEY=VALUE} pairs, the typed operations ({@link CliOperation}) and keys, and the words of a
 * shell line. Every refusal is an
 * {@link InputException} with a one-line message (exit code 2). The key and value limits are the client's defaults,
 * which are also the nodes'; the client checks them again.
 */
final class CliInput {
    /**
     * The contact point when none is given: node 1 of the local cluster {@code bin/fastccs cluster} starts
     * (node 1 of {@link Ports#DEFAULT} and {@link Ports#DEFAULT}'s FastCCS port; a constant for the help text).
     */
    static final String DEFAULT_HOST = "127.0.0.1:9142";

    private CliInput() {
    }

    /** Invalid input: exit code 2. */
    static final class InputException extends Exception {
        private static final long serialVersionUID = 1L;

        InputException(String message) {
            super(message);
        }
    }

    /** {@code HOST}, {@code HOST:PORT}, {@code [IPV6]:PORT} or a bare IPv6 address; the port defaults to 9142. */
    static InetSocketAddress contactPoint(String text) throws InputException {
        String s = text.strip();
        String host;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) throw new InputException("--host '" + text + "': missing ']' after the IPv6 address");
            host = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) throw new InputException("--host '" + text + "': expected [ADDRESS]:PORT");
                port = rest.substring(1);
            }
        } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
            host = s.substring(0, s.indexOf(':'));
            port = s.substring(s.indexOf(':') + 1);
        } else {
            host = s; // a name, an IPv4 address, or an IPv6 address without brackets (no port then)
        }
        if (host.isEmpty()) throw new InputException("--host '" + text + "': no host; expected HOST[:PORT]");
        int p = Ports.DEFAULT.fastccs();
        if (port != null) {
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                p = -1;
            }
            if (p < 1 || p > 65_535)
                throw new InputException("--host '" + text + "': the port must be a number from 1 to 65535");
        }
        // Resolves the name now; an unknown name stays unresolved and fails at connection, as unreachable.
        return new InetSocketAddress(host, p);
    }

    /** Contact points from {@code --host} options, or the local cluster's node 1 when there are none. */
    static List<InetSocketAddress> contactPoints(List<String> hosts) throws InputException {
        List<InetSocketAddress> out = new ArrayList<>();
        for (String h : hosts.isEmpty() ? List.of(DEFAULT_HOST) : hosts) out.add(contactPoint(h));
        return out;
    }

    /** A user and password for the nodes (both or neither), and the TLS context to reach them with (or null). */
    record Security(String user, String password, javax.net.ssl.SSLContext tls) {
        static final Security NONE = new Security(null, null, null);

        /** Applies the credentials and TLS to a client builder. */
        io.fastccs.client.FastCcsClientBuilder applyTo(io.fastccs.client.FastCcsClientBuilder builder) {
            if (user != null) builder.withCredentials(user, password);
            if (tls != null) builder.withSslContext(tls);
            return builder;
        }
    }

    /**
     * {@code --user}, {@code --password}, {@code --ssl-truststore} and {@code --ssl-truststore-password}: a user needs
     * a password and the other way round; a truststore (PKCS12 or JKS) must load, with its password if it has one.
     */
    static Security security(String user, String password, java.nio.file.Path truststore, String truststorePassword)
            throws InputException {
        if (user != null && user.isEmpty()) throw new InputException("--user: empty user name");
        if (user != null && password == null) throw new InputException("--user " + user + " needs --password");
        if (user == null && password != null) throw new InputException("--password needs --user");
        if (truststore == null && truststorePassword != null)
            throw new InputException("--ssl-truststore-password needs --ssl-truststore");
        javax.net.ssl.SSLContext tls = null;
        if (truststore != null) {
            try {
                tls = Truststore.sslContext(truststore, truststorePassword);
            } catch (java.io.IOException | java.security.GeneralSecurityException | IllegalArgumentException e) {
                throw new InputException("--ssl-truststore: cannot read " + truststore + " as a PKCS12 or JKS truststore"
                        + (truststorePassword == null ? " (no --ssl-truststore-password given)" : "") + ": " + e.getMessage());
            }
        }
        return new Security(user, password, tls);
    }

    /** Seconds, fractions allowed ({@code 5}, {@code 0.5}), or with a unit ({@code 500ms}, {@code 2s}, {@code 1m}). */
    static Duration timeout(String text) throws InputException {
        String s = text.strip().toLowerCase(java.util.Locale.ROOT);
        long unitMillis = 1000;
        if (s.endsWith("ms")) {
            unitMillis = 1;
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            s = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            unitMillis = 60_000;
            s = s.substring(0, s.length() - 1);
        }
        BigDecimal millis;
        try {
            millis = new BigDecimal(s.strip()).multiply(BigDecimal.valueOf(unitMillis));
        } catch (NumberFormatException e) {
            throw new InputException("--timeout '" + text + "': expected seconds, e.g. 5 or 0.5 (or 500ms)");
        }
        if (millis.signum() <= 0 || millis.compareTo(BigDecimal.valueOf(Duration.ofDays(1).toMillis())) > 0)
            throw new InputException("--timeout '" + text + "': must be more than 0 and at most a day");
        return Duration.ofMillis(Math.max(1, millis.longValue()));
    }

    /** A token as {@code --print-token} or the shell's {@code token} printed it. */
    static CausalToken token(String text) throws InputException {
        try {
            return CausalToken.parse(text.strip());
        } catch (IllegalArgumentException e) {
            String why = e.getMessage().replaceFirst("^not a causal token: ", "");
            throw new InputException("'" + abbreviate(text) + "' is not a causal token (" + why + "); a token is the "
                    + "fccs1.<base64> line --print-token or the shell's token command printed");
        }
    }

    /** {@code KEY=VALUE} pairs, split at the first {@code =}, in order; keys unique, keys and values non-empty. */
    static Map<String, String> writes(List<String> pairs) throws InputException {
        if (pairs.isEmpty()) throw new InputException("nothing to write: give KEY=VALUE pairs, e.g. write name=alice");
        checkCount(pairs.size());
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq < 0)
                throw new InputException("'" + abbreviate(pair) + "' is not KEY=VALUE; write takes pairs like name=alice");
            String key = pair.substring(0, eq);
            String value = pair.substring(eq + 1);
            checkKey(key, "'" + abbreviate(pair) + "' has an empty key");
            if (value.isEmpty())
                throw new InputException("'" + abbreviate(pair) + "' has an empty value; FastCCS stores non-empty values only "
                        + "(there are no deletes)");
            int bytes = value.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > FastCcsClientBuilder.DEFAULT_MAX_VALUE_SIZE)
                throw new InputException("the value for key '" + abbreviate(key) + "' is " + bytes + " bytes, more than the "
                        + "maximum of " + FastCcsClientBuilder.DEFAULT_MAX_VALUE_SIZE + " (1 MiB)");
            if (out.put(key, value) != null)
                throw new InputException("key '" + abbreviate(key) + "' is written twice; a transaction writes a key once");
        }
        return out;
    }

    /** Checked {@code KEY=VALUE} pairs ({@link #writes}) as put operations, in order. */
    static List<CliOperation> puts(Map<String, String> pairs) {
        List<CliOperation> out = new ArrayList<>(pairs.size());
        pairs.forEach((key, value) -> out.add(new CliOperation(CliOperation.Kind.PUT, key, value, 0, 0)));
        return out;
    }

    /** {@code add KEY DELTA}: DELTA a whole number, negative to subtract. */
    static CliOperation add(String key, String delta) throws InputException {
        checkKey(key, "empty key: a key has at least one character");
        return new CliOperation(CliOperation.Kind.ADD, key, null, number(delta, "DELTA", key), 0);
    }

    /** {@code max KEY VALUE}: VALUE a whole number. */
    static CliOperation max(String key, String value) throws InputException {
        checkKey(key, "empty key: a key has at least one character");
        return new CliOperation(CliOperation.Kind.MAX, key, null, number(value, "VALUE", key), 0);
    }

    /** {@code set-add KEY ELEMENT} or {@code set-remove KEY ELEMENT}: a non-empty ELEMENT within the value size. */
    static CliOperation setElement(CliOperation.Kind kind, String key, String element) throws InputException {
        checkKey(key, "empty key: a key has at least one character");
        checkText(element, "ELEMENT", key, 0);
        return new CliOperation(kind, key, element, 0, 0);
    }

    /** {@code topk-insert KEY K ITEM SCORE}: K from 1 to {@value WriteBuilder#MAX_TOPK}, a non-empty ITEM, a whole SCORE. */
    static CliOperation topkInsert(String key, String k, String item, String score) throws InputException {
        checkKey(key, "empty key: a key has at least one character");
        long parsedK = number(k, "K", key);
        if (parsedK < 1 || parsedK > WriteBuilder.MAX_TOPK)
            throw new InputException("K for key '" + abbreviate(key) + "' is " + parsedK + "; it must be 1 to " + WriteBuilder.MAX_TOPK);
        checkText(item, "ITEM", key, TOPK_OVERHEAD);
        return new CliOperation(CliOperation.Kind.TOPK_INSERT, key, item, number(score, "SCORE", key), (int) parsedK);
    }

    /** What a top-k insert sends besides its item (k and the score). */
    private static final int TOPK_OVERHEAD = 12;

    /**
     * The operations of one write, in order: at least one, within the key limit, one per key, except that adds to one
     * key merge (as the client merges them).
     */
    static List<CliOperation> operations(List<CliOperation> operations) throws InputException {
        if (operations.isEmpty())
            throw new InputException("nothing to write: give KEY=VALUE pairs or operations, e.g. write name=alice --add visits 1");
        Map<String, CliOperation.Kind> seen = new LinkedHashMap<>();
        for (CliOperation op : operations) {
            CliOperation.Kind earlier = seen.putIfAbsent(op.key(), op.kind());
            if (earlier != null && !(earlier == CliOperation.Kind.ADD && op.kind() == CliOperation.Kind.ADD))
                throw new InputException("key '" + abbreviate(op.key()) + "' has two operations (" + earlier.word + " and "
                        + op.kind().word + "); a transaction applies one operation per key (only adds to one key merge)");
        }
        checkCount(seen.size());
        return List.copyOf(operations);
    }

    private static long number(String text, String what, String key) throws InputException {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new InputException(what + " '" + abbreviate(text) + "' for key '" + abbreviate(key) + "' is not a whole "
                    + "number (" + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ")");
        }
    }

    private static void checkText(String text, String what, String key, int overhead) throws InputException {
        if (text.isEmpty()) throw new InputException("empty " + what + " for key '" + abbreviate(key) + "'");
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes + overhead > FastCcsClientBuilder.DEFAULT_MAX_VALUE_SIZE)
            throw new InputException(what + " for key '" + abbreviate(key) + "' is " + bytes + " bytes, more than the maximum of "
                    + (FastCcsClientBuilder.DEFAULT_MAX_VALUE_SIZE - overhead));
    }

    /** Keys to read, in order, unique and non-empty. */
    static List<String> keys(List<String> keys) throws InputException {
        if (keys.isEmpty()) throw new InputException("nothing to read: give one or more keys, e.g. read name");
        checkCount(keys.size());
        Set<String> out = new LinkedHashSet<>();
        for (String key : keys) {
            checkKey(key, "empty key: a key has at least one character");
            if (!out.add(key)) throw new InputException("key '" + abbreviate(key) + "' is given twice");
        }
        return List.copyOf(out);
    }

    private static void checkKey(String key, String ifEmpty) throws InputException {
        if (key.isEmpty()) throw new InputException(ifEmpty);
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > FastCcsClientBuilder.DEFAULT_MAX_KEY_SIZE)
            throw new InputException("key '" + abbreviate(key) + "' is " + bytes + " bytes, more than the maximum of "
                    + FastCcsClientBuilder.DEFAULT_MAX_KEY_SIZE);
    }

    private static void checkCount(int n) throws InputException {
        if (n > FastCcsClientBuilder.DEFAULT_MAX_KEYS_PER_TRANSACTION)
            throw new InputException(n + " keys, more than the maximum of "
                    + FastCcsClientBuilder.DEFAULT_MAX_KEYS_PER_TRANSACTION + " in one transaction");
    }

    /**
     * The words of a shell line: separated by blanks; {@code '...'} is literal, {@code "..."} allows {@code \"} and
     * {@code \\}, and a backslash outside quotes escapes the next character. So {@code write msg="hello world"}
     * writes {@code hello world}.
     */
    static List<String> words(String line) throws InputException {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) out.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) throw new InputException("unterminated ' quote");
                word.append(line, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int j = i + 1;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char d = line.charAt(j);
                    if (d == '\\' && j + 1 < line.length() && (line.charAt(j + 1) == '"' || line.charAt(j + 1) == '\\')) d = line.charAt(++j);
                    word.append(d);
                }
                if (j == line.length()) throw new InputException("unterminated \" quote");
                i = j;
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 == line.length()) throw new InputException("a backslash ends the line");
                word.append(line.charAt(++i));
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) out.add(word.toString());
        return out;
    }

    /** {@code s}, shortened to 40 characters for messages. */
    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
