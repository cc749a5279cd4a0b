package io.fastccs.tools.cli;

import io.fastccs.client.CausalToken;
import io.fastccs.client.FastCcsClientBuilder;
import io.fastccs.tools.cli.CliInput.InputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The command-line client: {@code bin/fastccs write}, {@code read} and {@code shell}, and the commands of one
 * commutative operation ({@link OperationCommands}: {@code add}, {@code max}, {@code set-add}, {@code set-remove},
 * {@code topk-insert}). Exit codes: 0 ok, 1 the transaction failed or timed out, 2 usage or invalid input, 3 the
 * cluster could not be reached.
 */
@Command(name = "fastccs", mixinStandardHelpOptions = true,
        description = "The FastCCS command-line client: atomic writes and causally consistent reads on a FastCCS "
                + "cluster. Exit codes: 0 ok, 1 the transaction failed or timed out, 2 usage or invalid input, "
                + "3 the cluster could not be reached.",
        subcommands = {ClientCommand.Write.class, ClientCommand.Read.class, ClientCommand.Shell.class,
                OperationCommands.Add.class, OperationCommands.Max.class, OperationCommands.SetAdd.class,
                OperationCommands.SetRemove.class, OperationCommands.TopkInsert.class})
public final class ClientCommand implements Runnable {
    @Spec
    CommandSpec spec;

    /** Where the shell reads its commands. */
    private final InputStream in;
    /** Whether the shell prompts and greets (a terminal), or only answers (a pipe). */
    private final boolean interactive;

    ClientCommand(InputStream in, boolean interactive) {
        this.in = in;
        this.interactive = interactive;
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "name a command: write, read, shell, add, max, set-add, set-remove "
                + "or topk-insert");
    }

    /** {@code --host}, {@code --timeout}, {@code --token} and the security options, on every command. */
    static final class ConnectionOptions {
        @Option(names = "--host", paramLabel = "HOST[:PORT]",
                description = "a node to connect through; repeat for several (default: " + CliInput.DEFAULT_HOST
                        + ", node 1 of the local cluster of bin/fastccs cluster; the port defaults to 9142)")
        List<String> hosts = new ArrayList<>();
        @Option(names = "--timeout", paramLabel = "SECONDS",
                description = "how long to wait for connecting and for each reply; fractions allowed, or 500ms "
                        + "(default: ${DEFAULT-VALUE})")
        String timeout = Long.toString(FastCcsClientBuilder.DEFAULT_REQUEST_TIMEOUT.toSeconds());
        @Option(names = "--token", paramLabel = "TOKEN",
                description = "continue the causal context of TOKEN, as printed by --print-token or the shell's token "
                        + "command: the session sees everything the session that printed it had written or read")
        String token;
        @Option(names = "--user", paramLabel = "USER",
                description = "log in as USER, when the cluster runs Cassandra's PasswordAuthenticator")
        String user;
        @Option(names = "--password", paramLabel = "PASSWORD", description = "USER's password")
        String password;
        @Option(names = "--ssl-truststore", paramLabel = "FILE",
                description = "connect over TLS, trusting the certificates in FILE (PKCS12 or JKS), when the cluster has "
                        + "Cassandra's client_encryption_options on")
        java.nio.file.Path truststore;
        @Option(names = "--ssl-truststore-password", paramLabel = "PASSWORD", description = "the truststore's password")
        String truststorePassword;

        /** The parsed options, or null after printing why they are invalid. */
        Parsed parse(String what, PrintWriter err) {
            try {
                List<InetSocketAddress> contactPoints = CliInput.contactPoints(hosts);
                Duration parsedTimeout = CliInput.timeout(timeout);
                CausalToken parsedToken = null;
                if (token != null) {
                    try {
                        parsedToken = CliInput.token(token);
                    } catch (InputException e) {
                        throw new InputException("--token: " + e.getMessage());
                    }
                }
                CliInput.Security security = CliInput.security(user, password, truststore, truststorePassword);
                return new Parsed(contactPoints, parsedTimeout, parsedToken, security);
            } catch (InputException e) {
                err.println(what + ": " + e.getMessage());
                return null;
            }
        }
    }

    record Parsed(List<InetSocketAddress> contactPoints, Duration timeout, CausalToken token, CliInput.Security security) {
    }

    @Command(name = "write", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Writes every KEY=VALUE pair, and every operation given by the options, in one write-only "
                    + "transaction: atomically, all or nothing, then prints 'committed' with the keys, partitions touched "
                    + "and transaction id. A VALUE may hold '='; the KEY is everything before the first one. Values are "
                    + "non-empty, at most 1 MiB.",
                    "",
                    "The options write counters, max registers, sets and top-k lists, whose concurrent updates add up "
                    + "instead of replacing each other; each works as the command of its name (bin/fastccs add --help, "
                    + "...). A key takes one operation per transaction (adds to one key merge), and keeps the type of its "
                    + "first operation ever: a put on a counter is refused, and so is the whole transaction.",
                    "",
                    "Example: write post:42=hello --add posts:count 1 --set-add tags:42 java --topk-insert leaders 10 alice 950"})
    static final class Write implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ConnectionOptions connection;
        @Option(names = "--print-token", description = "after the write, print the session's causal token as the last line")
        boolean printToken;
        @Option(names = "--add", arity = "2", hideParamSyntax = true, paramLabel = "KEY DELTA", description = "add DELTA to the counter KEY (repeatable)")
        List<String> adds = new ArrayList<>();
        @Option(names = "--max", arity = "2", hideParamSyntax = true, paramLabel = "KEY VALUE",
                description = "raise the max register KEY to VALUE if that is larger (repeatable)")
        List<String> maxes = new ArrayList<>();
        @Option(names = "--set-add", arity = "2", hideParamSyntax = true, paramLabel = "KEY ELEMENT", description = "add ELEMENT to the set KEY (repeatable)")
        List<String> setAdds = new ArrayList<>();
        @Option(names = "--set-remove", arity = "2", hideParamSyntax = true, paramLabel = "KEY ELEMENT",
                description = "remove ELEMENT from the set KEY: every add of it visible when the write starts (repeatable)")
        List<String> setRemoves = new ArrayList<>();
        @Option(names = "--topk-insert", arity = "4", hideParamSyntax = true, paramLabel = "KEY K ITEM SCORE",
                description = "offer ITEM with SCORE to the top-K list KEY (repeatable)")
        List<String> topkInserts = new ArrayList<>();
        @Parameters(arity = "0..*", paramLabel = "KEY=VALUE", description = "the pairs to write")
        List<String> pairs = new ArrayList<>();

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            String what = "fastccs write";
            Parsed options = connection.parse(what, err);
            if (options == null) return CliSession.USAGE;
            List<CliOperation> writes;
            try {
                writes = operations();
            } catch (InputException e) {
                err.println(what + ": " + e.getMessage());
                return CliSession.USAGE;
            }
            try (CliSession session = CliSession.connect(options.contactPoints(), options.timeout(), options.token(), options.security(),
                    what, spec.commandLine().getOut(), err)) {
                return session.write(writes, printToken, what);
            } catch (CliSession.NotConnected e) {
                return e.exitCode;
            }
        }

        /** The pairs as puts, then the options' operations, each option's in the order given. */
        private List<CliOperation> operations() throws InputException {
            List<CliOperation> out = new ArrayList<>();
            if (!pairs.isEmpty()) out.addAll(CliInput.puts(CliInput.writes(pairs)));
            for (int i = 0; i < adds.size(); i += 2) out.add(CliInput.add(adds.get(i), adds.get(i + 1)));
            for (int i = 0; i < maxes.size(); i += 2) out.add(CliInput.max(maxes.get(i), maxes.get(i + 1)));
            for (int i = 0; i < setAdds.size(); i += 2)
                out.add(CliInput.setElement(CliOperation.Kind.SET_ADD, setAdds.get(i), setAdds.get(i + 1)));
            for (int i = 0; i < setRemoves.size(); i += 2)
                out.add(CliInput.setElement(CliOperation.Kind.SET_REMOVE, setRemoves.get(i), setRemoves.get(i + 1)));
            for (int i = 0; i < topkInserts.size(); i += 4)
                out.add(CliInput.topkInsert(topkInserts.get(i), topkInserts.get(i + 1), topkInserts.get(i + 2), topkInserts.get(i + 3)));
            return CliInput.operations(out);
        }
    }

    @Command(name = "read", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Reads the KEYs in one read-only transaction, a causally consistent snapshot, and prints "
                    + "KEY=VALUE (or 'KEY (none)' for a key never written) per key, then the rounds the read took "
                    + "(1, or 2 when some partitions had to be read again) and the partitions it touched.")
    static final class Read implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ConnectionOptions connection;
        @Option(names = "--print-token", description = "after the read, print the session's causal token as the last line")
        boolean printToken;
        @Parameters(arity = "1..*", paramLabel = "KEY", description = "the keys to read")
        List<String> keys = new ArrayList<>();

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            String what = "fastccs read";
            Parsed options = connection.parse(what, err);
            if (options == null) return CliSession.USAGE;
            List<String> checked;
            try {
                checked = CliInput.keys(keys);
            } catch (InputException e) {
                err.println(what + ": " + e.getMessage());
                return CliSession.USAGE;
            }
            try (CliSession session = CliSession.connect(options.contactPoints(), options.timeout(), options.token(), options.security(),
                    what, spec.commandLine().getOut(), err)) {
                return session.read(checked, printToken, what);
            } catch (CliSession.NotConnected e) {
                return e.exitCode;
            }
        }
    }

    static final String SHELL_HELP =
            "commands, one per line (quote values with blanks: write msg=\"hello world\"):\n"
            + "  write KEY=VALUE...             write the pairs atomically, in one transaction\n"
            + "  read KEY...                    read the keys from one causally consistent snapshot\n"
            + "  add KEY DELTA                  add DELTA to the counter KEY\n"
            + "  max KEY VALUE                  raise the max register KEY to VALUE, if larger\n"
            + "  set-add KEY ELEMENT            add ELEMENT to the set KEY\n"
            + "  set-remove KEY ELEMENT         remove ELEMENT from the set KEY (every add of it visible now)\n"
            + "  topk-insert KEY K ITEM SCORE   offer ITEM with SCORE to the top-K list KEY\n"
            + "  token                          print the session's causal token\n"
            + "  resume TOKEN                   also see everything TOKEN's session had seen (this session's writes stay visible)\n"
            + "  continue                       go on after a write that was not confirmed (see the message it printed)\n"
            + "  help                           this list\n"
            + "  quit                           leave (so does the end of the input)";

    @Command(name = "shell", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"An interactive client: one causal session for the whole shell, so every command sees the writes "
                + "and reads of the commands before it. Reads commands from standard input, one per line, from a "
                + "terminal or a pipe; prompts only on a terminal. Exits with 0 when every command succeeded, else "
                + "with the exit code of the last one that failed.",
                "", SHELL_HELP})
    static final class Shell implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @ParentCommand
        ClientCommand parent;
        @Mixin
        ConnectionOptions connection;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Parsed options = connection.parse("fastccs shell", err);
            if (options == null) return CliSession.USAGE;
            try (CliSession session = CliSession.connect(options.contactPoints(), options.timeout(), options.token(), options.security(),
                    "fastccs shell", out, err)) {
                BufferedReader lines = new BufferedReader(new InputStreamReader(parent.in, StandardCharsets.UTF_8));
                return run(session, lines, parent.interactive, out, err);
            } catch (CliSession.NotConnected e) {
                return e.exitCode;
            }
        }

        static int run(CliSession session, BufferedReader lines, boolean interactive, PrintWriter out, PrintWriter err) {
            if (interactive) {
                out.println("connected to a FastCCS cluster of " + session.partitions() + " partitions through "
                        + session.contactPointsText() + "; one causal session for the whole shell. Type help.");
            }
            int status = CliSession.OK;
            for (int lineNumber = 1; ; lineNumber++) {
                if (interactive) {
                    out.print("fastccs> ");
                    out.flush();
                }
                String line;
                try {
                    line = lines.readLine();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (line == null) {
                    if (interactive) out.println();
                    break;
                }
                String where = interactive ? "" : "line " + lineNumber + ": ";
                List<String> words;
                try {
                    words = CliInput.words(line);
                } catch (InputException e) {
                    err.println(where + e.getMessage());
                    status = CliSession.USAGE;
                    continue;
                }
                if (words.isEmpty() || words.get(0).startsWith("#")) continue;
                String command = words.get(0).toLowerCase(Locale.ROOT);
                List<String> args = words.subList(1, words.size());
                String what = where + command;
                if (command.equals("quit") || command.equals("exit")) break;
                int code = execute(session, command, args, what, out, err);
                out.flush();
                err.flush();
                if (code != CliSession.OK) status = code;
            }
            return status;
        }

        private static int execute(CliSession session, String command, List<String> args, String what,
                                   PrintWriter out, PrintWriter err) {
            try {
                switch (command) {
                    case "write":
                        return session.write(CliInput.writes(args), false, what);
                    case "read":
                        return session.read(CliInput.keys(args), false, what);
                    case "add":
                        expect(command, args, "KEY DELTA");
                        return session.write(List.of(CliInput.add(args.get(0), args.get(1))), false, what);
                    case "max":
                        expect(command, args, "KEY VALUE");
                        return session.write(List.of(CliInput.max(args.get(0), args.get(1))), false, what);
                    case "set-add":
                        expect(command, args, "KEY ELEMENT");
                        return session.write(List.of(CliInput.setElement(CliOperation.Kind.SET_ADD, args.get(0), args.get(1))), false, what);
                    case "set-remove":
                        expect(command, args, "KEY ELEMENT");
                        return session.write(List.of(CliInput.setElement(CliOperation.Kind.SET_REMOVE, args.get(0), args.get(1))), false, what);
                    case "topk-insert":
                        expect(command, args, "KEY K ITEM SCORE");
                        return session.write(List.of(CliInput.topkInsert(args.get(0), args.get(1), args.get(2), args.get(3))), false, what);
                    case "token":
                        if (!args.isEmpty()) throw new InputException("token takes no arguments");
                        session.printToken();
                        return CliSession.OK;
                    case "resume":
                        if (args.size() != 1) throw new InputException("resume takes one TOKEN");
                        return session.resume(CliInput.token(args.get(0)), what);
                    case "continue":
                        if (!args.isEmpty()) throw new InputException("continue takes no arguments");
                        return session.continueWithoutUnconfirmedWrite();
                    case "help":
                        out.println(SHELL_HELP);
                        return CliSession.OK;
                    default:
                        throw new InputException("unknown command '" + CliInput.abbreviate(command)
                                + "'; commands: write, read, add, max, set-add, set-remove, topk-insert, token, resume, "
                                + "continue, help, quit");
                }
            } catch (InputException e) {
                err.println(what + ": " + e.getMessage());
                return CliSession.USAGE;
            }
        }

        /** Checks that {@code command} got one argument per word of {@code usage}. */
        private static void expect(String command, List<String> args, String usage) throws InputException {
            int n = usage.split(" ").length;
            if (args.size() != n) throw new InputException(command + " takes " + usage + " (" + n + " arguments, " + args.size() + " given)");
        }
    }

    /** The command line reading the shell's commands from {@code in}. */
    static CommandLine commandLine(InputStream in, boolean interactive) {
        CommandLine commandLine = new CommandLine(new ClientCommand(in, interactive));
        // "read @x" reads the key @x, not the arguments in file x.
        commandLine.setExpandAtFiles(false);
        return commandLine;
    }

    public static void main(String[] args) {
        // The client's log: warnings only, on stderr, without the logger's decorations. Set before any logger exists.
        io.fastccs.tools.cluster.ToolLogging.quiet();
        CommandLine commandLine = commandLine(System.in, System.console() != null);
        // Keys and values are UTF-8 whatever the locale (Java 17 defaults to the locale's charset).
        commandLine.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
        commandLine.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
        System.exit(commandLine.execute(args));
    }
}
