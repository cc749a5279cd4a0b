package io.fastccs.tools.cli;

import io.fastccs.tools.cli.CliInput.InputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The commands that write one commutative operation in a transaction of its own: {@code bin/fastccs add}, {@code max},
 * {@code set-add}, {@code set-remove} and {@code topk-insert} (the {@code write} command's options of the same names
 * combine several, with puts, in one transaction).
 */
final class OperationCommands {
    private OperationCommands() {
    }

    /** What every operation command shares: the connection options, {@code --print-token}, one write. */
    abstract static class OperationCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;
        @Mixin
        ClientCommand.ConnectionOptions connection;
        @Option(names = "--print-token", description = "after the write, print the session's causal token as the last line")
        boolean printToken;

        /** The operation, parsed and checked. */
        abstract CliOperation operation() throws InputException;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            String what = "fastccs " + spec.name();
            ClientCommand.Parsed options = connection.parse(what, err);
            if (options == null) return CliSession.USAGE;
            List<CliOperation> write;
            try {
                write = CliInput.operations(List.of(operation()));
            } catch (InputException e) {
                err.println(what + ": " + e.getMessage());
                return CliSession.USAGE;
            }
            try (CliSession session = CliSession.connect(options.contactPoints(), options.timeout(), options.token(),
                    options.security(), what, spec.commandLine().getOut(), err)) {
                return session.write(write, printToken, what);
            } catch (CliSession.NotConnected e) {
                return e.exitCode;
            }
        }
    }

    static final String TYPES = "A key keeps the type of its first operation ever (a plain key, counter, max register, "
            + "set or top-k): an operation of another type is refused with the node's message and changes nothing. "
            + "bin/fastccs read prints typed keys' values with their type.";

    @Command(name = "add", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Adds DELTA to the counter KEY in one transaction, then prints 'committed' as write does. "
                    + "Concurrent adds all count: the counter is the sum of every delta (a key never written reads 0).",
                    "", TYPES})
    static final class Add extends OperationCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "the counter")
        String key;
        @Parameters(index = "1", paramLabel = "DELTA", description = "a whole number; negative to subtract")
        String delta;

        @Override
        CliOperation operation() throws InputException {
            return CliInput.add(key, delta);
        }
    }

    @Command(name = "max", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Raises the max register KEY to VALUE in one transaction, if VALUE is larger than every value "
                    + "written to it, then prints 'committed' as write does.", "", TYPES})
    static final class Max extends OperationCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "the max register")
        String key;
        @Parameters(index = "1", paramLabel = "VALUE", description = "a whole number")
        String value;

        @Override
        CliOperation operation() throws InputException {
            return CliInput.max(key, value);
        }
    }

    @Command(name = "set-add", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Adds ELEMENT to the set KEY in one transaction, then prints 'committed' as write does. The set "
                    + "is add-wins: an add that a remove had not seen survives it.", "", TYPES})
    static final class SetAdd extends OperationCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "the set")
        String key;
        @Parameters(index = "1", paramLabel = "ELEMENT", description = "non-empty, at most 1 MiB")
        String element;

        @Override
        CliOperation operation() throws InputException {
            return CliInput.setElement(CliOperation.Kind.SET_ADD, key, element);
        }
    }

    @Command(name = "set-remove", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Removes ELEMENT from the set KEY in one transaction, then prints 'committed' as write does. "
                    + "A remove removes the adds its session has seen: this command reads KEY first, so it removes every "
                    + "add of ELEMENT visible then (and those --token's session had seen); an add it cannot see yet, a "
                    + "concurrent one, wins and stays.", "", TYPES})
    static final class SetRemove extends OperationCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "the set")
        String key;
        @Parameters(index = "1", paramLabel = "ELEMENT", description = "non-empty, at most 1 MiB")
        String element;

        @Override
        CliOperation operation() throws InputException {
            return CliInput.setElement(CliOperation.Kind.SET_REMOVE, key, element);
        }
    }

    @Command(name = "topk-insert", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Offers ITEM with SCORE to the top-K list KEY in one transaction, then prints 'committed' as "
                    + "write does. The list keeps each item's best score and returns the K best items, ties to the smaller "
                    + "item; K is fixed by the key's first insert, and an insert with another K is refused.", "", TYPES})
    static final class TopkInsert extends OperationCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "the top-k list")
        String key;
        @Parameters(index = "1", paramLabel = "K", description = "how many items the list keeps, 1 to 1024")
        String k;
        @Parameters(index = "2", paramLabel = "ITEM", description = "non-empty")
        String item;
        @Parameters(index = "3", paramLabel = "SCORE", description = "a whole number; higher is better")
        String score;

        @Override
        CliOperation operation() throws InputException {
            return CliInput.topkInsert(key, k, item, score);
        }
    }
}
